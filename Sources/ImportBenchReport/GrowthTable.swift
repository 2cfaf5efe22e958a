import Foundation
import ImportBenchCore

/// How cost grows with scale in a sweep: per strategy, fetches and time per record at each scale,
/// and the exponent k of time ~ scale^k fitted by least squares on the logs (1 = linear).
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
                headers: ["strategy"] + scales.map { "\($0.0) fetches/rec, us/rec" } + ["time exponent", "fetch exponent"],
                alignments: [.left] + scales.map { _ in .right } + [.right, .right])
            let byStrategy = Dictionary(grouping: runs, by: \.strategy)
            for name in SummaryTable.reportOrder(runs) {
                guard let strategyRuns = byStrategy[name] else { continue }
                var cells = [name]
                var timePoints: [(Double, Double)] = []
                var fetchPoints: [(Double, Double)] = []
                for (label, factor) in scales {
                    let atScale = strategyRuns.filter { $0.scale == label }
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
                    timePoints.append((factor, wall))
                    if observed, first.measurement.counts.fetches > 0 { fetchPoints.append((factor, Double(first.measurement.counts.fetches))) }
                }
                cells.append(exponent(timePoints).map { String(format: "%.2f", $0) } ?? "-")
                cells.append(exponent(fetchPoints).map { String(format: "%.2f", $0) } ?? "-")
                table.append(cells)
            }
            text +=
                (markdown ? "**growth: \(MarkdownText.escape(title))**\n\n" : "growth with scale: \(title)\n")
                + (markdown ? table.renderMarkdown() : table.render())
                + "\n"
        }
        return text.isEmpty ? nil : text
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
}
