import Foundation
import ImportBenchCore

/// Compares a run's CSV with a committed baseline, as CI does: what the run wrote must be the same,
/// cost counts are exact (lower an improvement, higher a regression), times and memory may move
/// within a tolerance. Every column's kind and better direction come from its declaration.
package struct BaselineComparison {
    package enum Verdict: Int32, Sendable {
        case unchanged = 0
        case regression = 2
        case improvementsOnly = 4
    }

    package struct Change: Equatable {
        package let key: ResultTable.Key
        package let metric: String
        package let baseline: String
        package let current: String
        package let isRegression: Bool
        /// For a timing judged from repetitions: the test behind the verdict.
        package var test: TimedChange? = nil

        /// A count's difference (`+1`), a measured value's relative change (`+31.0%`): for a
        /// tested timing, the estimated change with its interval and p.
        package var difference: String {
            if let test { return test.description }
            if let old = Int64(baseline), let new = Int64(current) { return new - old > 0 ? "+\(new - old)" : "\(new - old)" }
            guard let old = Double(baseline), let new = Double(current), old != 0 else { return "" }
            return String(format: "%+.1f%%", (new - old) / old * 100)
        }

        /// How the Markdown table words it.
        package var verdictWord: String {
            if test?.isWithinNoise == true { return "within noise" }
            return isRegression ? "regression" : "improvement"
        }
    }

    /// A timed metric's change between the repetitions of two runs: relative (+0.25 is 25 %
    /// slower), with its 95 % interval, and p after Holm's adjustment over every row's same metric.
    package struct TimedChange: Equatable, Sendable {
        package let change: Double
        package let lower: Double
        package let upper: Double
        package let p: Double
        package let baselineSamples: Int
        package let currentSamples: Int
        /// Larger than the tolerance, but not significant: the runs' own spread could make it.
        package let isWithinNoise: Bool

        package var description: String {
            String(format: "%+.1f%% [%+.1f%%, %+.1f%%], p %.2g, n %d/%d", change * 100, lower * 100, upper * 100, p, baselineSamples, currentSamples)
        }
    }

    /// Significance after Holm's adjustment over every row's same metric.
    package static let alpha = 0.05

    /// What the run wrote (records, rows, digest, verdict): any difference fails, either way.
    package static let correctnessMetrics = ResultColumns.columns.filter { $0.judgement == .correctness }.map(\.name)
    /// Cost counts that must not move (lower is better when they do), in the CSV's order.
    package static let exactMetrics = ResultColumns.columns.filter { $0.judgement == .exact }.map(\.name)
    /// Default relative tolerances, as the columns declare them. Wall time is judged on its ratio to
    /// the C reference of the same repetition when both files have it, else to the ceiling.
    package static let defaultTolerances: [String: Double] = Dictionary(
        uniqueKeysWithValues: ResultColumns.columns.compactMap { column in column.defaultTolerance.map { (column.name, $0) } })

    package let changes: [Change]
    /// Per tested metric, the row that moved most, whatever its verdict, with the tolerance it was
    /// held to: how close an unchanged run came to a verdict (a machine drifting shows here first).
    package let largestMoves: [(change: Change, tolerance: Double)]
    package let compared: Int
    /// Timed and memory metrics judged by a rank test.
    package let timingsTested: Int
    /// Those with too few repetitions for a test to prove anything, held by their medians to the tolerance.
    package let timingsByMedians: Int

    package let missing: [ResultTable.Key]
    /// What made each side: build and machine.
    package let baselineProvenance: ResultsProvenance
    package let currentProvenance: ResultsProvenance
    /// Why timings were not judged (the files come from different builds), else nil. Markdown, like `notes`.
    package let timingsRefused: String?
    /// What the reader should know about the comparison's footing: another machine, a file too old
    /// to say which build made it. Markdown: what they quote of the files is escaped (`MarkdownText`).
    package let notes: [String]

    /// What a comparison judges.
    package enum Scope: Sendable {
        /// Counts, what the run wrote, times and memory (as the tolerances given allow).
        case everything
        /// Times and memory only, of two builds run in turn on one machine (the gate), whose counts
        /// are judged against a committed baseline elsewhere: time is each repetition's CPU time,
        /// with no reference to divide by, and a row only one side has is left out.
        case sideBySide
    }

    /// Throws `ResultsInputError.nothingInCommon` when the files share no row.
    package init(baselinePath: String, currentPath: String, tolerances: [String: Double] = defaultTolerances) throws {
        try self.init(baselinePaths: [baselinePath], currentPaths: [currentPath], tolerances: tolerances)
    }

    /// Compares runs whose repetitions may be spread over several files a side (one file per
    /// repetition, as the gate interleaves them). With `passes` above 1, each side's repetitions
    /// are that many passes over the same repetitions, and each repetition is judged by its fastest
    /// pass (`ResultTable.fastest(ofPasses:)`).
    package init(
        baselinePaths: [String], currentPaths: [String], tolerances: [String: Double] = defaultTolerances, scope: Scope = .everything, passes: Int = 1
    ) throws {
        let columns =
            Self.correctnessMetrics + Self.exactMetrics + ["vm_steps", "sqlite_version", "wall_ratio_to_ceiling", "c_reference_s"]
            + Array(tolerances.keys)
        let baseline = try ResultTable(paths: baselinePaths, columns: columns).fastest(ofPasses: passes)
        let current = try ResultTable(paths: currentPaths, columns: columns).fastest(ofPasses: passes)
        let common = Set(baseline.rows.keys).intersection(current.rows.keys).sorted()
        guard !common.isEmpty else {
            throw ResultsInputError.nothingInCommon(baseline: baselinePaths.joined(separator: ", "), current: currentPaths.joined(separator: ", "))
        }
        baselineProvenance = baseline.provenance
        currentProvenance = current.provenance
        var notes: [String]
        (timingsRefused, notes) = Self.footing(
            baseline.provenance, current.provenance, judgingTimings: !tolerances.isEmpty, sideBySide: scope == .sideBySide)
        let tolerances = timingsRefused == nil ? tolerances : [:]
        var changes: [Change] = []
        // Rows whose counts one side could not observe (a command with its own SQLite): judged on the rest.
        var unobserved = Set<String>()
        /// Every timed or memory metric of every common row, judged together once all are known.
        var timings: [Timing] = []
        for key in common {
            guard let row = CommonRow(key: key, baseline: baseline, current: current) else { continue }
            let counts = Self.judgeCounts(of: row, scope: scope)
            changes += counts.changes
            if counts.unobserved { unobserved.insert(key.description) }
            timings += Self.timings(of: row, tolerances: tolerances, scope: scope)
        }
        let judged = Self.judge(timings)
        changes += judged.changes
        if let note = Self.unobservedNote(unobserved) { notes.append(note) }
        self.notes = notes
        self.largestMoves = judged.largestMoves
        self.timingsByMedians = timings.count - judged.tested
        self.timingsTested = judged.tested
        self.changes = changes
        self.compared = common.count
        self.missing = scope == .everything ? Set(baseline.rows.keys).subtracting(current.rows.keys).sorted() : []
    }

    /// One row both files have: its values and its repetitions on each side.
    struct CommonRow {
        let key: ResultTable.Key
        let baseline: [String: String]
        let current: [String: String]
        let baselineSamples: [String: [Double]]
        let currentSamples: [String: [Double]]

        /// Nil when either file lacks the row.
        init?(key: ResultTable.Key, baseline: ResultTable, current: ResultTable) {
            guard let old = baseline.rows[key], let new = current.rows[key] else { return nil }
            self.key = key
            self.baseline = old
            self.current = new
            baselineSamples = baseline.samples[key] ?? [:]
            currentSamples = current.samples[key] ?? [:]
        }
    }

    /// A row's counts and what it wrote (compared for everything only): a difference in what it
    /// wrote is a regression, a count one when it moved the worse way. `unobserved` when a side
    /// could not count (a command with its own SQLite).
    private static func judgeCounts(of row: CommonRow, scope: Scope) -> (changes: [Change], unobserved: Bool) {
        guard scope == .everything else { return ([], false) }
        let (old, new) = (row.baseline, row.current)
        var changes: [Change] = []
        var unobserved = false
        func note(_ metric: String, regression: Bool) {
            changes.append(Change(key: row.key, metric: metric, baseline: old[metric] ?? "", current: new[metric] ?? "", isRegression: regression))
        }
        let executionColumns = ResultColumns.executionColumns
        for metric in correctnessMetrics {
            guard let a = old[metric], let b = new[metric] else { continue }
            if executionColumns.contains(metric), a.isEmpty || b.isEmpty {
                // Counts the baseline observed and this run could not: the guard is gone, which fails.
                if !a.isEmpty { note(metric, regression: true) }
                unobserved = true
                continue
            }
            guard a != b else { continue }
            note(metric, regression: true)
        }
        var exact = exactMetrics
        if old["sqlite_version"] == new["sqlite_version"] {
            exact += ResultColumns.columns.filter { $0.judgement == .exactForOneSQLite }.map(\.name)
        }
        for metric in exact {
            guard let a = old[metric], let b = new[metric] else { continue }
            if a.isEmpty || b.isEmpty {
                if !a.isEmpty { note(metric, regression: true) }
                unobserved = true
            }
            guard !a.isEmpty, !b.isEmpty, a != b else { continue }
            let rose = (Double(b) ?? 0) > (Double(a) ?? 0)
            note(metric, regression: rose == lowerIsBetter(metric))
        }
        return (changes, unobserved)
    }

    /// The note on rows whose counts were not judged, or nil when every row's were.
    private static func unobservedNote(_ unobserved: Set<String>) -> String? {
        guard !unobserved.isEmpty else { return nil }
        return "Counts not observed (a command whose SQLite nothing could count) in \(unobserved.count) row\(unobserved.count == 1 ? "" : "s"): "
            + "\(unobserved.sorted().map(MarkdownText.escape).joined(separator: "; ")); "
            + "their counts were not judged, what they wrote and their times were."
    }

    /// Holm's adjustment within each metric: time is one family (every row's), peak RSS another, and
    /// so on. Each asks its own question ("did any row get slower?"), and a slowdown is not made
    /// harder to prove by memory metrics compared beside it (docs/ci.md has the measurements).
    static func holmAdjustedPerMetric(_ tests: [(metric: String, p: Double)]) -> [Double] {
        var adjusted = Array(repeating: 1.0, count: tests.count)
        for indices in Dictionary(grouping: tests.indices, by: { tests[$0].metric }).values {
            for (index, p) in zip(indices, RankTest.holmAdjusted(indices.map { tests[$0].p })) { adjusted[index] = p }
        }
        return adjusted
    }

    /// Whether timings can be judged between files from these builds and machines, and what to say
    /// about it. Another build's timings are refused: debug and release differ by several times,
    /// and not evenly across strategies. Another machine's are judged, with a note: the ratio to
    /// the C reference carries part of the way, the gate (`bench gate`) all of it.
    static func footing(
        _ baseline: ResultsProvenance, _ current: ResultsProvenance, judgingTimings: Bool, sideBySide: Bool
    ) -> (refused: String?, notes: [String]) {
        guard judgingTimings else { return (nil, []) }
        let (old, new) = (baseline.buildConfiguration, current.buildConfiguration)
        if !old.isEmpty, !new.isEmpty, old != new {
            return (
                "the baseline is a \(MarkdownText.escape(old)) build's and the current run a \(MarkdownText.escape(new)) build's; timings compare only within one build "
                    + "(record the baseline with the build CI runs, or run both with the same configuration)", []
            )
        }
        if baseline.countedAt != current.countedAt {
            return (
                "the baseline was counted at the \(MarkdownText.escape(baseline.countedAt)) level and the current run at the "
                    + "\(MarkdownText.escape(current.countedAt)) level; "
                    + "the SQLite-level trace costs time of its own, so timings compare only at one level (run both with the same --count-at)", []
            )
        }
        // Side by side, the caller ran both builds here: an older base's file says less than it knows.
        guard !sideBySide else { return (nil, []) }
        var notes: [String] = []
        for (name, provenance) in [("baseline", baseline), ("current run", current)] where provenance.buildConfiguration.isEmpty {
            notes.append(
                "The \(name) records no build configuration (csv_version \(provenance.csvVersion), before 7): timings judged as before, on the assumption that both come from the same build."
            )
        }
        let differences = baseline.machineDifferences(from: current)
        if !differences.isEmpty {
            notes.append(
                "Measured on different machines (\(differences.map(MarkdownText.escape).joined(separator: "; "))): the ratio to the C reference does not carry fully from one CPU to another. "
                    + "`bench gate` rebuilds the baseline's revision and measures it beside this build on this machine.")
        }
        return (nil, notes)
    }

    package var verdict: Verdict {
        if changes.contains(where: \.isRegression) || !missing.isEmpty { return .regression }
        return changes.allSatisfy { $0.test?.isWithinNoise == true } ? .unchanged : .improvementsOnly
    }

    /// A Markdown report for a pull-request comment: every changed metric with old, new and change.
    /// What comes from the files (a row's strategy or scenario, a value) is escaped (`MarkdownText`):
    /// a name holding `|`, `![x](y)` or HTML stays one cell's text.
    package var markdown: String {
        var text = "### bench compare: \(Self.title(verdict))\n\n\(compared) rows compared"
        text +=
            missing.isEmpty
            ? ".\n" : "; missing from the current run: \(missing.map { MarkdownText.escape($0.description) }.joined(separator: ", ")).\n"
        if let timingsRefused { text += "Timings not judged: \(timingsRefused). Counts and what the runs wrote were judged.\n" }
        for note in notes { text += note + "\n" }
        if timingsTested > 0 {
            text +=
                "\(timingsTested) timed and memory metrics judged from their repetitions by a Mann-Whitney U test (Holm-adjusted over the rows of each metric, "
                + "alpha \(Self.alpha)); a change counts when it is significant and larger than its tolerance. "
                + "Values are medians; a tested change reads: estimate [95% interval], p, repetitions baseline/current.\n"
        }
        if timingsByMedians > 0 {
            text +=
                "\(timingsByMedians) timed and memory metrics had too few repetitions for a test to prove a change "
                + "(\(RankTest.minimumSamples) or more a side, more as more metrics are compared): their medians were held to the tolerance.\n"
        }
        if !largestMoves.isEmpty {
            text += "Largest move per tested metric, whatever its verdict:\n"
            for (change, tolerance) in largestMoves {
                text +=
                    "- \(MarkdownText.escape(change.metric)): \(MarkdownText.escape(change.key.description)) "
                    + "\(change.difference); tolerance \(String(format: "%.0f%%", tolerance * 100))\n"
            }
        }
        guard !changes.isEmpty else { return text }
        text += "\n| row | metric | baseline | current | change | verdict |\n|---|---|---:|---:|---:|---|\n"
        for change in changes {
            // The change and the verdict are bench's own numbers and words; the rest comes from the files.
            let cells = [change.key.description, change.metric, change.baseline, change.current].map(MarkdownText.escape)
            text += "| " + (cells + [change.difference, change.verdictWord]).joined(separator: " | ") + " |\n"
        }
        return text
    }

    static func title(_ verdict: Verdict) -> String {
        switch verdict {
        case .unchanged: return "unchanged"
        case .regression: return "REGRESSION"
        case .improvementsOnly: return "improvements only (refresh the baseline)"
        }
    }

    /// Which way a metric gets better, as its column declares (every one today: lower).
    static func lowerIsBetter(_ metric: String) -> Bool {
        ResultColumns.column(named: metric)?.lowerIsBetter ?? true
    }

    /// Parses `wall_s=25%` (or `0.25`) into a metric and a fraction. A bare number above 1 is
    /// refused: `wall_s=25` would mean 2,500 %, and a run 25 times slower would pass.
    package static func parseTolerance(_ text: String) -> (String, Double)? {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, ResultColumns.judgement(of: parts[0]) == .measured else { return nil }
        let percent = parts[1].hasSuffix("%")
        let value = percent ? Double(parts[1].dropLast()).map { $0 / 100 } : Double(parts[1])
        guard let value, value.isFinite, value >= 0, percent || value <= 1 else { return nil }
        return (parts[0], value)
    }
}
