import ImportBenchCore
import ImportBenchReport

/// A run's results as the judge reads them: grouped by configuration, and any numeric column's
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

    private let results: [RunResult]
    private let contexts: [ResultColumn.RunContext]
    private let columns: [String: ResultColumn]

    init(results: [RunResult], contexts: [ResultColumn.RunContext]) {
        self.results = results
        self.contexts = contexts
        columns = Dictionary(ResultColumns.columns.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether a column is a deterministic count, judged exactly.
    func isExact(_ column: String) -> Bool {
        guard let judgement = columns[column]?.judgement else { return false }
        return judgement != .measured && judgement != .none
    }

    /// The results' indices grouped by configuration, in the order first met, named as a header
    /// names them; `withScale: false` groups the scales of a sweep together.
    func configurations(withScale: Bool) -> [(String, [Int])] {
        var order: [String] = []
        var groups: [String: [Int]] = [:]
        for (index, run) in results.enumerated() {
            let name = Self.configuration(of: run, withScale: withScale)
            if groups[name] == nil { order.append(name) }
            groups[name, default: []].append(index)
        }
        return order.map { ($0, groups[$0] ?? []) }
    }

    /// `column` on `strategy`'s rows among `runs`, by repetition; rows without a value are left out.
    /// `cpu_s` is the gate's CPU time, user plus system, which no column holds whole.
    func values(_ column: String, of strategy: String, in runs: [Int]) -> [Value] {
        if column == ResultTable.cpuSeconds {
            let user = values("cpu_user_s", of: strategy, in: runs)
            let system = Dictionary(values("cpu_sys_s", of: strategy, in: runs).map { ($0.repetition, $0.value) }, uniquingKeysWith: { a, _ in a })
            return user.compactMap { value in
                system[value.repetition].map {
                    Value(repetition: value.repetition, scale: value.scale, records: value.records, value: value.value + $0)
                }
            }
        }
        guard let declared = columns[column] else { return [] }
        return runs.filter { results[$0].strategy == strategy }.sorted { results[$0].repetition < results[$1].repetition }.compactMap {
            let run = results[$0]
            guard let number = declared.number(run, contexts[$0]) else { return nil }
            return Value(repetition: run.repetition, scale: Scale(parsing: run.scale)?.factor ?? 1, records: Double(run.records), value: number)
        }
    }

    private static func configuration(of run: RunResult, withScale: Bool) -> String {
        var name = run.scenario + (withScale ? " \(run.scale)" : "") + " batch \(run.batchSize)"
        if let preload = run.preload { name += " preload \(preload)" }
        if run.settings != .default { name += ", \(run.settings)" }
        if run.decodeAhead { name += ", decoding ahead" }
        return name
    }
}
