import ImportBenchCore

extension ResultsRow {
    /// The rows a CSV would hold for `results`, without writing it: the identifying fields as the
    /// CSV writes them, and every numeric column's value (`ResultColumns`), so what judges rows
    /// judges a run just measured and one read back alike.
    package static func rows(of results: [RunResult]) -> [ResultsRow] {
        let contexts = ResultColumn.RunContext.contexts(of: results)
        let numeric = ResultColumns.columns.filter { $0.unit.isNumeric }
        return zip(results, contexts).map { result, context in
            var values: [String: Double] = [:]
            for column in numeric {
                if let number = column.number(result, context) { values[column.name] = number }
            }
            let scale = Scale(parsing: result.scale).map(RunSize.init) ?? RunSize(recordedWith: Double(result.records))
            return ResultsRow(
                scenario: result.scenario, strategy: result.strategy, role: result.role.rawValue, scale: scale, preload: result.preload ?? "",
                batchSize: result.batchSize.description, repetition: result.repetition, journalMode: result.settings.journal.rawValue,
                synchronous: result.settings.synchronous.rawValue, pragmas: result.settings.pragmaText,
                decodeAhead: result.decodeAhead ? "on" : "off", valid: result.valid, values: values)
        }
    }
}
