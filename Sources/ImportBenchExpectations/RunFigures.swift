import ImportBenchCore
import ImportBenchReport

/// A run's results as the judge reads them, whether just measured or read back from results CSVs
/// (the gate's, one file a repetition): rows grouped by configuration, and any numeric column's
/// value on a strategy's rows, repetition by repetition.
struct RunFigures {
    struct Value {
        let repetition: Int
        /// The scale's factor (1 for a recorded payload).
        let scale: Double
        /// The payload's occurrences: what growth is measured against, since a generator's scale
        /// need not multiply them exactly.
        let records: Double
        let value: Double
    }

    private let rows: [ResultsRow]
    private let judgements: [String: ResultColumn.Judgement]

    init(rows: [ResultsRow]) {
        self.rows = rows
        judgements = Dictionary(ResultColumns.columns.map { ($0.name, $0.judgement) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether a column is a deterministic count, judged exactly.
    func isExact(_ column: String) -> Bool {
        guard let judgement = judgements[column] else { return false }
        return judgement != .measured && judgement != .none
    }

    /// The rows' indices grouped by configuration, in the order first met, named as a header
    /// names them; `withScale: false` groups the scales of a sweep together.
    func configurations(withScale: Bool) -> [(String, [Int])] {
        var order: [String] = []
        var groups: [String: [Int]] = [:]
        for (index, row) in rows.enumerated() {
            let name = Self.configuration(of: row, withScale: withScale)
            if groups[name] == nil { order.append(name) }
            groups[name, default: []].append(index)
        }
        return order.map { ($0, groups[$0] ?? []) }
    }

    /// `column` on `strategy`'s rows among `indices`, by repetition; rows without a value are left
    /// out. `cpu_s` is the gate's CPU time, user plus system, which no column holds whole.
    func values(_ column: String, of strategy: String, in indices: [Int]) -> [Value] {
        indices.filter { rows[$0].strategy == strategy }.sorted { (rows[$0].repetition ?? 0) < (rows[$1].repetition ?? 0) }.compactMap {
            let row = rows[$0]
            let number: Double?
            if column == ResultTable.cpuSeconds {
                number = row.value("cpu_user_s").flatMap { user in row.value("cpu_sys_s").map { user + $0 } }
            } else {
                number = row.value(column)
            }
            guard let number else { return nil }
            return Value(repetition: row.repetition ?? 1, scale: row.scale.factor, records: row.records ?? 0, value: number)
        }
    }

    private static func configuration(of row: ResultsRow, withScale: Bool) -> String {
        var name = row.scenario + (withScale ? " \(row.scale)" : "") + " batch \(row.batchSize)"
        if !row.preload.isEmpty { name += " preload \(row.preload)" }
        if (!row.journalMode.isEmpty && row.journalMode != "wal") || (!row.synchronous.isEmpty && row.synchronous != "normal") || !row.pragmas.isEmpty
        {
            name += ", journal \(row.journalMode), synchronous \(row.synchronous)" + (row.pragmas.isEmpty ? "" : ", \(row.pragmas)")
        }
        if row.decodeAhead == "on" { name += ", decoding ahead" }
        return name
    }
}
