import Foundation
import ImportBenchCore

/// How cost grows with scale in a sweep: per strategy, fetches and time per record at each scale,
/// and the exponent k of cost ~ occurrences^k fitted by least squares on the logs (1 = linear; the
/// payload's occurrences, since a generator's scale need not multiply them exactly): time's
/// with the range of its per-repetition exponents, fetches' and statements' exact, each with the
/// verdict its interval allows (`GrowthVerdict`).
package enum GrowthTable {
    /// nil unless the results hold at least two scales of one scenario, batch size and setting.
    /// What a group holds fixed, all but the scale: a sweep over a setting (journal, synchronous,
    /// a pragma, decoding ahead) gets a table per setting rather than one median over them.
    private static func title(_ run: RunResult) -> String {
        var title = "\(run.scenario) batch \(run.batchSize)" + (run.preload.map { " preload \($0)" } ?? "")
        if run.settings != .default { title += ", \(run.settings)" }
        if run.decodeAhead { title += ", decoding ahead" }
        return title
    }

    package static func render(_ results: [RunResult], markdown: Bool = false) -> String? {
        let groups = Dictionary(grouping: results, by: title)
        var text = ""
        for (title, runs) in groups.sorted(by: { $0.key < $1.key }) {
            let scales = Set(runs.map(\.scale)).compactMap { label in Scale(parsing: label).map { (label, $0.factor) } }
                .sorted { $0.1 < $1.1 }
            guard scales.count >= 2 else { continue }
            var table = TextTable(
                headers: ["strategy"] + scales.map { "\($0.0) fetches/rec, us/rec" } + ["time exponent", "fetch exponent", "statement exponent"],
                alignments: [.left] + scales.map { _ in .right } + [.right, .right, .right])
            let byStrategy = Dictionary(grouping: runs, by: \.strategy)
            for name in SummaryTable.reportOrder(runs) {
                guard let strategyRuns = byStrategy[name] else { continue }
                table.append([name] + row(strategyRuns, scales: scales))
            }
            text +=
                (markdown ? "**growth: \(MarkdownText.escape(title))**\n\n" : "growth with scale: \(title)\n")
                + (markdown ? table.renderMarkdown() : table.render())
                + "\n" + (markdown ? "\n" : "") + Self.legend + "\n"
        }
        return text.isEmpty ? nil : text
    }

    /// What the exponents' verdicts mean, under each table.
    static let legend =
        "linear: every exponent in the interval within \(GrowthVerdict.timeTolerance) of 1 for time (its range over the "
        + "repetitions), \(GrowthVerdict.countTolerance) for counts (exact); super- or sublinear: wholly above or below; none where the interval reaches across"

    /// One strategy's cells: per scale its fetches and time per occurrence, then its exponents with
    /// their verdicts: time's from the medians, with the range of the per-repetition exponents;
    /// counts' exact.
    private static func row(_ runs: [RunResult], scales: [(String, Double)]) -> [String] {
        var cells: [String] = []
        var timePoints: [(Double, Double)] = []
        var counts: [(Double, RunResult)] = []
        for (label, _) in scales {
            let atScale = runs.filter { $0.scale == label }
            guard let first = atScale.first, first.records > 0 else {
                cells.append("-")
                continue
            }
            let wall = SummaryTable.median(atScale.map(\.measurement.wallSeconds))
            let records = Double(first.records)
            // Counts nothing observed (a command whose SQLite is its own) are "-", never zeros.
            let observed = first.measurement.countedAt != .notObserved
            let fetches = observed ? String(format: "%.3f", Double(first.measurement.counts.fetches) / records) : "-"
            cells.append("\(fetches), " + String(format: "%.2f", wall / records * 1_000_000))
            timePoints.append((records, wall))
            if observed { counts.append((records, first)) }
        }
        cells.append(timeExponent(runs, scales: scales, medians: timePoints))
        for count in [{ (run: RunResult) in Double(run.measurement.counts.fetches) }, { Double($0.measurement.counts.statements) }] {
            let points = counts.map { ($0.0, count($0.1)) }
            cells.append(points.count < 2 || points.allSatisfy { $0.1 == 0 } ? "-" : countExponent(points))
        }
        return cells
    }

    /// The exponent of the median times, then the range of one exponent per repetition that ran at
    /// every scale, and the verdict that range allows.
    private static func timeExponent(_ runs: [RunResult], scales: [(String, Double)], medians: [(Double, Double)]) -> String {
        guard let exponent = exponent(medians) else { return "-" }
        let perRepetition = exponentsPerRepetition(
            runs.map { (repetition: $0.repetition, scale: $0.scale, size: Double($0.records), value: $0.measurement.wallSeconds) },
            scales: scales.count)
        guard perRepetition.count >= 2, let lower = perRepetition.min(), let upper = perRepetition.max() else {
            return String(format: "%.2f", exponent)
        }
        let verdict = GrowthVerdict(lower: lower, upper: upper, tolerance: GrowthVerdict.timeTolerance).map { " \($0.rawValue)" } ?? ""
        return String(format: "%.2f (%.2f-%.2f)", exponent, lower, upper) + verdict
    }

    /// A count's exponent, exact, and its verdict.
    private static func countExponent(_ points: [(Double, Double)]) -> String {
        let exponent = growthExponent(points)
        let verdict = GrowthVerdict(lower: exponent, upper: exponent, tolerance: GrowthVerdict.countTolerance).map { " \($0.rawValue)" } ?? ""
        return (exponent.isFinite ? String(format: "%.2f", exponent) : "inf") + verdict
    }

    /// Least-squares slope of log(y) on log(x); nil for fewer than two distinct x.
    package static func exponent(_ points: [(Double, Double)]) -> Double? {
        let logs = points.filter { $0.0 > 0 && $0.1 > 0 }.map { (log($0.0), log($0.1)) }
        guard Set(logs.map(\.0)).count >= 2 else { return nil }
        let meanX = logs.map(\.0).reduce(0, +) / Double(logs.count)
        let meanY = logs.map(\.1).reduce(0, +) / Double(logs.count)
        let covariance = logs.reduce(0) { $0 + ($1.0 - meanX) * ($1.1 - meanY) }
        let variance = logs.reduce(0) { $0 + ($1.0 - meanX) * ($1.0 - meanX) }
        return covariance / variance
    }

    /// One exponent per repetition that ran at all `scales`, each from that repetition's points
    /// (value against size): the spread a timing's exponent has across repetitions.
    package static func exponentsPerRepetition(
        _ points: [(repetition: Int, scale: String, size: Double, value: Double)], scales: Int
    ) -> [Double] {
        Dictionary(grouping: points, by: \.repetition).values.filter { Set($0.map(\.scale)).count == scales }.compactMap { points in
            exponent(points.map { ($0.size, $0.value) })
        }
    }

    /// The exponent k of value ~ occurrences^k; 0 for a metric that is zero at every scale (nothing grows),
    /// infinity for one that is zero at some scales only (it appears as the payload grows).
    package static func growthExponent(_ points: [(Double, Double)]) -> Double {
        let positive = points.filter { $0.1 > 0 }
        if positive.isEmpty { return 0 }
        if positive.count < points.count { return .infinity }
        return exponent(points) ?? .nan
    }
}
