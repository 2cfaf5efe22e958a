import Foundation
import ImportBenchCore

/// Compares a run's CSV with a committed baseline, as CI does: what the run wrote must be the same,
/// cost counts are exact (lower an improvement, higher a regression), times and memory may move
/// within a tolerance. Every column's kind and better direction come from its declaration.
public struct BaselineComparison {
    public enum Verdict: Int32, Sendable {
        case unchanged = 0
        case regression = 2
        case improvementsOnly = 4
    }

    public struct Change: Equatable {
        public let key: ResultTable.Key
        public let metric: String
        public let baseline: String
        public let current: String
        public let isRegression: Bool
        /// For a timing judged from repetitions: the test behind the verdict.
        public var test: TimedChange? = nil

        /// A count's difference (`+1`), a measured value's relative change (`+31.0%`): for a
        /// tested timing, the estimated change with its interval and p.
        public var difference: String {
            if let test { return test.description }
            if let old = Int64(baseline), let new = Int64(current) { return new - old > 0 ? "+\(new - old)" : "\(new - old)" }
            guard let old = Double(baseline), let new = Double(current), old != 0 else { return "" }
            return String(format: "%+.1f%%", (new - old) / old * 100)
        }

        /// How the Markdown table words it.
        public var verdictWord: String {
            if test?.isWithinNoise == true { return "within noise" }
            return isRegression ? "regression" : "improvement"
        }
    }

    /// A timed metric's change between the repetitions of two runs: relative (+0.25 is 25 %
    /// slower), with its 95 % interval, and p after Holm's adjustment for every timing compared.
    public struct TimedChange: Equatable, Sendable {
        public let change: Double
        public let lower: Double
        public let upper: Double
        public let p: Double
        public let baselineSamples: Int
        public let currentSamples: Int
        /// Larger than the tolerance, but not significant: the runs' own spread could make it.
        public let isWithinNoise: Bool

        public var description: String {
            String(format: "%+.1f%% [%+.1f%%, %+.1f%%], p %.2g, n %d/%d", change * 100, lower * 100, upper * 100, p, baselineSamples, currentSamples)
        }
    }

    /// Significance after Holm's adjustment over every timing compared.
    public static let alpha = 0.05

    /// What the run wrote (records, rows, digest, verdict): any difference fails, either way.
    public static let correctnessMetrics = ResultColumns.columns.filter { $0.judgement == .correctness }.map(\.name)
    /// Cost counts that must not move (lower is better when they do), in the CSV's order.
    public static let exactMetrics = ResultColumns.columns.filter { $0.judgement == .exact }.map(\.name)
    /// Default relative tolerances, as the columns declare them. Wall time is judged on its ratio to
    /// the C reference of the same repetition when both files have it, else to the ceiling.
    public static let defaultTolerances: [String: Double] = Dictionary(
        uniqueKeysWithValues: ResultColumns.columns.compactMap { column in column.defaultTolerance.map { (column.name, $0) } })

    public let changes: [Change]
    public let compared: Int
    /// Timings judged by a rank test (the rest had too few repetitions and were judged by medians).
    public let timingsTested: Int
    public let missing: [ResultTable.Key]

    /// Throws `ResultsInputError.nothingInCommon` when the files share no row.
    public init(baselinePath: String, currentPath: String, tolerances: [String: Double] = defaultTolerances) throws {
        let columns = Self.correctnessMetrics + Self.exactMetrics + ["vm_steps", "sqlite_version", "wall_ratio_to_ceiling", "c_reference_s"]
            + Array(tolerances.keys)
        let baseline = try ResultTable(path: baselinePath, columns: columns)
        let current = try ResultTable(path: currentPath, columns: columns)
        let common = Set(baseline.rows.keys).intersection(current.rows.keys).sorted()
        guard !common.isEmpty else {
            throw ResultsInputError.nothingInCommon(baseline: baselinePath, current: currentPath)
        }
        var changes: [Change] = []
        /// Timings with enough repetitions on both sides, judged together once their p-values are adjusted.
        var tested: [(key: ResultTable.Key, metric: String, tolerance: Double, test: RankTest, samples: (Int, Int))] = []
        for key in common {
            guard let old = baseline.rows[key], let new = current.rows[key] else { continue }
            func note(_ metric: String, regression: Bool) {
                changes.append(Change(key: key, metric: metric, baseline: old[metric] ?? "", current: new[metric] ?? "", isRegression: regression))
            }
            for metric in Self.correctnessMetrics {
                guard let a = old[metric], let b = new[metric], a != b else { continue }
                note(metric, regression: true)
            }
            var exact = Self.exactMetrics
            if old["sqlite_version"] == new["sqlite_version"] {
                exact += ResultColumns.columns.filter { $0.judgement == .exactForOneSQLite }.map(\.name)
            }
            for metric in exact {
                guard let a = old[metric], let b = new[metric], !a.isEmpty, !b.isEmpty, a != b else { continue }
                let rose = (Double(b) ?? 0) > (Double(a) ?? 0)
                note(metric, regression: rose == Self.lowerIsBetter(metric))
            }
            for (metric, tolerance) in tolerances.sorted(by: { $0.key < $1.key }) {
                let before = baseline.samples[key] ?? [:], after = current.samples[key] ?? [:]
                var judged = metric
                if metric == "wall_s" {
                    if before[ResultTable.wallPerCReference]?.isEmpty == false, after[ResultTable.wallPerCReference]?.isEmpty == false {
                        judged = ResultTable.wallPerCReference
                    } else if old["wall_ratio_to_ceiling"]?.isEmpty == false, new["wall_ratio_to_ceiling"]?.isEmpty == false {
                        judged = "wall_ratio_to_ceiling"
                    }
                }
                // Repetitions on both sides: a rank test on the logarithms, so the shift is a ratio.
                if let a = before[judged], let b = after[judged], a.allSatisfy({ $0 > 0 }), b.allSatisfy({ $0 > 0 }),
                    let test = RankTest(baseline: a.map { log($0) }, current: b.map { log($0) })
                {
                    tested.append((key, judged, tolerance, test, (a.count, b.count)))
                    continue
                }
                // Too few repetitions for a test: the medians against the tolerance, as a last resort.
                let value = { (row: [String: String]) -> Double? in
                    judged == ResultTable.wallPerCReference ? nil : row[judged].flatMap(Double.init)
                }
                guard let a = value(old) ?? before[judged].map(ResultTable.median), let b = value(new) ?? after[judged].map(ResultTable.median), a > 0
                else { continue }
                let relative = (b - a) / a
                if relative > tolerance { note(judged, regression: Self.lowerIsBetter(judged)) }
                else if relative < -tolerance { note(judged, regression: !Self.lowerIsBetter(judged)) }
            }
        }
        let adjusted = RankTest.holmAdjusted(tested.map(\.test.p))
        for (index, entry) in tested.enumerated() {
            let change = exp(entry.test.shift) - 1
            guard abs(change) > entry.tolerance else { continue }
            let significant = adjusted[index] < Self.alpha
            let worse = (change > 0) == Self.lowerIsBetter(entry.metric)
            let medians = { (table: ResultTable) in table.samples[entry.key]?[entry.metric].map { String(ResultTable.median($0)) } ?? "" }
            changes.append(Change(
                key: entry.key, metric: entry.metric, baseline: medians(baseline), current: medians(current),
                isRegression: significant && worse,
                test: TimedChange(
                    change: change, lower: exp(entry.test.lower) - 1, upper: exp(entry.test.upper) - 1, p: adjusted[index],
                    baselineSamples: entry.samples.0, currentSamples: entry.samples.1, isWithinNoise: !significant)))
        }
        self.timingsTested = tested.count
        self.changes = changes
        self.compared = common.count
        self.missing = Set(baseline.rows.keys).subtracting(current.rows.keys).sorted()
    }

    public var verdict: Verdict {
        if changes.contains(where: \.isRegression) || !missing.isEmpty { return .regression }
        return changes.allSatisfy { $0.test?.isWithinNoise == true } ? .unchanged : .improvementsOnly
    }

    /// A Markdown report for a pull-request comment: every changed metric with old, new and change.
    public var markdown: String {
        var text = "### bench compare: \(Self.title(verdict))\n\n\(compared) rows compared"
        text += missing.isEmpty ? ".\n" : "; missing from the current run: \(missing.map(\.description).joined(separator: ", ")).\n"
        if timingsTested > 0 {
            text += "\(timingsTested) timings judged from their repetitions by a Mann-Whitney U test (Holm-adjusted over all of them, "
                + "alpha \(Self.alpha)); a change counts when it is significant and larger than its tolerance. "
                + "Times are medians; a tested change reads: estimate [95% interval], p, repetitions baseline/current.\n"
        }
        guard !changes.isEmpty else { return text }
        text += "\n| row | metric | baseline | current | change | verdict |\n|---|---|---:|---:|---:|---|\n"
        for change in changes {
            text += "| \(change.key) | \(change.metric) | \(change.baseline) | \(change.current) | \(change.difference) | \(change.verdictWord) |\n"
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
    public static func parseTolerance(_ text: String) -> (String, Double)? {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, ResultColumns.judgement(of: parts[0]) == .measured else { return nil }
        let percent = parts[1].hasSuffix("%")
        let value = percent ? Double(parts[1].dropLast()).map { $0 / 100 } : Double(parts[1])
        guard let value, value.isFinite, value >= 0, percent || value <= 1 else { return nil }
        return (parts[0], value)
    }
}
