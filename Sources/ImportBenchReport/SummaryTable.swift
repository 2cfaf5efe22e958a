import Foundation
import ImportBenchCore
import ImportBenchStrategies

/// The terminal table: one row per strategy, repetitions folded into median and range.
package enum SummaryTable {
    package static func render(_ results: [RunResult]) -> String { table(results).render() }

    package static func renderMarkdown(_ results: [RunResult]) -> String { table(results).renderMarkdown() }

    /// One row per strategy; the columns are those `ResultColumns` declares for the table, in the
    /// contract's order, verdicts last.
    static func table(_ results: [RunResult]) -> TextTable {
        let byStrategy = Dictionary(grouping: results, by: \.strategy)
        let order = reportOrder(results)
        let probed = results.contains { $0.measurement.readerProbe != nil }
        let shown = ResultColumns.columns.compactMap { column in column.table.map { (column, $0) } }
            .filter { $0.1.visibility == .always || probed }
        let ordered = shown.filter { $0.1.summary != .verdict } + shown.filter { $0.1.summary == .verdict }
        let cells = ordered.map { TableCells(column: $0.0, table: $0.1, results: results) }

        var table = TextTable(
            headers: ["strategy"] + cells.flatMap(\.headings),
            alignments: [.left] + cells.flatMap { cell in cell.headings.map { _ in cell.table.summary == .verdict ? .left : .right } })
        for name in order {
            guard let runs = byStrategy[name] else { continue }
            table.append([name + labels(runs)] + cells.flatMap { $0.cells(for: runs) })
        }
        return table
    }

    /// What sets a strategy's runs apart from its own way: resumed, or a fallback it took
    /// ("bulk (indexes kept)"), so that a row never reads as a way the strategy did not go.
    private static func labels(_ runs: [RunResult]) -> String {
        var labels = runs.contains { $0.measurement.resumedFrom != nil } ? ["resumed"] : []
        labels += Set(runs.compactMap(\.measurement.fallback)).sorted()
        return labels.isEmpty ? "" : " (" + labels.joined(separator: ", ") + ")"
    }

    /// What the harness costs on its own, from the ceiling's runs: its writes and commit against the
    /// C reference inserting the same rows (SQLite's own price), and how fast the payload decoded.
    /// Medians over repetitions; empty when no ceiling ran.
    package static func harnessLines(_ results: [RunResult]) -> String {
        let ceilings = results.filter { $0.role == .limit }
        let reference = ceilings.first?.strategy ?? StrategyRole.limit.title
        var text = ""
        let referenced = ceilings.compactMap { run in run.cReferenceSeconds.map { (run: run, reference: $0) } }
            .filter { $0.reference > 0 }
        if !referenced.isEmpty {
            let store = median(referenced.map { ($0.run.measurement.writeSeconds + $0.run.measurement.commitSeconds) / $0.reference })
            let wall = median(referenced.map { $0.run.measurement.wallSeconds / $0.reference })
            text +=
                "\(reference) = \(String(format: "%.2f", store)) x the C reference on the same rows (writes and commit; "
                + "\(String(format: "%.2f", wall)) x with decoding); C reference \(seconds(median(referenced.map(\.reference)))) s"
                + referenceTechnique(referenced.map(\.run)) + "\n"
        }
        // Decoded ahead, decode_s is only the wait for records: no rate to give.
        let decoded = ceilings.filter { !$0.decodeAhead && $0.measurement.decodeSeconds > 0 && $0.payloadBytes > 0 }
        if !decoded.isEmpty {
            let rate = median(decoded.map { Double($0.payloadBytes) / $0.measurement.decodeSeconds / 1_000_000 })
            let occurrences = median(decoded.map { Double($0.records) / $0.measurement.decodeSeconds / 1_000_000 })
            text +=
                "decoding: \(String(format: "%.0f", rate)) MB/s, \(String(format: "%.2f", occurrences)) million occurrences/s "
                + "(the \(reference)'s payload bytes and occurrences over its decode time)\n"
        }
        return text
    }

    /// How the C reference loaded its rows, and the plain replay of earlier releases against it.
    private static func referenceTechnique(_ ceilings: [RunResult]) -> String {
        guard let rows = ceilings.compactMap(\.cReferenceRowsPerInsert).first else { return "" }
        let plain = ceilings.compactMap { run in
            run.cReferencePlainSeconds.flatMap { plain in run.cReferenceSeconds.map { plain / $0 } }
        }
        let plainText = plain.isEmpty ? "" : "; plain single-row inserts, indexes first: \(String(format: "%.2f", median(plain))) x"
        return " (\(rows) rows per INSERT, indexes after the rows\(plainText))"
    }

    /// Each strategy once, by role (the baseline, the designs, the reference, alternatives,
    /// pitfalls), and within a role in the order of its first run, which is the order the runner
    /// ran them in: no table needs to know a strategy's name.
    static func reportOrder(_ results: [RunResult]) -> [String] {
        var first: [String: (rank: Int, index: Int)] = [:]
        for (index, result) in results.enumerated() where first[result.strategy] == nil {
            first[result.strategy] = (roleRank[result.role] ?? roleRank.count, index)
        }
        return first.sorted { ($0.value.rank, $0.value.index) < ($1.value.rank, $1.value.index) }.map(\.key)
    }

    private static let roleRank: [StrategyRole: Int] = [.startingPoint: 0, .user: 1, .limit: 2, .alternative: 3, .pitfall: 4]

    /// Four significant digits: 12.34, 1.571, 0.002913. Milliseconds runs stay readable, long runs stay short.
    static func seconds(_ value: Double) -> String {
        guard value > 0 else { return "0" }
        let decimals = max(0, 3 - Int(log10(value).rounded(.down)))
        return String(format: "%.\(decimals)f", value)
    }

    package static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Bytes as MB with one decimal (`Figures.megabytes`).
    package static func megabytes(_ bytes: Int64) -> String { Figures.megabytes(bytes) }

    /// Thousands separated (`Figures.count`).
    package static func count(_ value: Int) -> String { Figures.count(value) }
}
