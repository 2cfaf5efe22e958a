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

        /// A count's difference (`+1`), a measured value's relative change (`+31.0%`).
        public var difference: String {
            if let old = Int64(baseline), let new = Int64(current) { return new - old > 0 ? "+\(new - old)" : "\(new - old)" }
            guard let old = Double(baseline), let new = Double(current), old != 0 else { return "" }
            return String(format: "%+.1f%%", (new - old) / old * 100)
        }
    }

    /// What the run wrote (records, rows, digest, verdict): any difference fails, either way.
    public static let correctnessMetrics = ResultColumns.columns.filter { $0.judgement == .correctness }.map(\.name)
    /// Cost counts that must not move (lower is better when they do), in the CSV's order.
    public static let exactMetrics = ResultColumns.columns.filter { $0.judgement == .exact }.map(\.name)
    /// Default relative tolerances, as the columns declare them; a timing is judged on its ratio to
    /// the same run's ceiling when both files have it.
    public static let defaultTolerances: [String: Double] = Dictionary(
        uniqueKeysWithValues: ResultColumns.columns.compactMap { column in column.defaultTolerance.map { (column.name, $0) } })

    public let changes: [Change]
    public let compared: Int
    public let missing: [ResultTable.Key]

    /// Throws `ResultsInputError.nothingInCommon` when the files share no row.
    public init(baselinePath: String, currentPath: String, tolerances: [String: Double] = defaultTolerances) throws {
        let columns = Self.correctnessMetrics + Self.exactMetrics + ["vm_steps", "sqlite_version", "wall_ratio_to_ceiling"] + Array(tolerances.keys)
        let baseline = try ResultTable(path: baselinePath, columns: columns)
        let current = try ResultTable(path: currentPath, columns: columns)
        let common = Set(baseline.rows.keys).intersection(current.rows.keys).sorted()
        guard !common.isEmpty else {
            throw ResultsInputError.nothingInCommon(baseline: baselinePath, current: currentPath)
        }
        var changes: [Change] = []
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
                var judged = metric
                if metric == "wall_s", old["wall_ratio_to_ceiling"]?.isEmpty == false, new["wall_ratio_to_ceiling"]?.isEmpty == false {
                    judged = "wall_ratio_to_ceiling"
                }
                guard let a = old[judged].flatMap(Double.init), let b = new[judged].flatMap(Double.init), a > 0 else { continue }
                let relative = (b - a) / a
                if relative > tolerance { note(judged, regression: Self.lowerIsBetter(judged)) }
                else if relative < -tolerance { note(judged, regression: !Self.lowerIsBetter(judged)) }
            }
        }
        self.changes = changes
        self.compared = common.count
        self.missing = Set(baseline.rows.keys).subtracting(current.rows.keys).sorted()
    }

    public var verdict: Verdict {
        if changes.contains(where: \.isRegression) || !missing.isEmpty { return .regression }
        return changes.isEmpty ? .unchanged : .improvementsOnly
    }

    /// A Markdown report for a pull-request comment: every changed metric with old, new and change.
    public var markdown: String {
        var text = "### bench compare: \(Self.title(verdict))\n\n\(compared) rows compared"
        text += missing.isEmpty ? ".\n" : "; missing from the current run: \(missing.map(\.description).joined(separator: ", ")).\n"
        guard !changes.isEmpty else { return text }
        text += "\n| row | metric | baseline | current | change | verdict |\n|---|---|---:|---:|---:|---|\n"
        for change in changes {
            text += "| \(change.key) | \(change.metric) | \(change.baseline) | \(change.current) | \(change.difference) | "
                + "\(change.isRegression ? "regression" : "improvement") |\n"
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
