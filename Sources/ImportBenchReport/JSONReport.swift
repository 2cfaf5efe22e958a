import Foundation
import ImportBenchCore

/// The CSV contract as JSON: one object per run, the same names, values typed by their column's
/// declared unit (text stays a string even where it looks numeric, as `batch_size` 1000 beside `all`).
package enum JSONReport {
    package static func render(_ results: [RunResult]) throws -> String {
        let rows: [[String: Any]] = zip(results, ResultColumn.RunContext.contexts(of: results)).map { result, context in
            var object: [String: Any] = [:]
            for column in ResultColumns.columns {
                object[column.name] = json(column.value(result, context), unit: column.unit)
            }
            return object
        }
        let data = try JSONSerialization.data(
            withJSONObject: ["csv_version": ResultColumns.version, "runs": rows], options: [.prettyPrinted, .sortedKeys])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// A real number is given as the CSV rounds it, so the JSON and the CSV of a run agree.
    private static func json(_ value: ResultColumn.Value, unit: ResultColumn.Unit) -> Any {
        switch value {
        case .text(let text): return text
        case .integer(let number): return number
        case .real: return Double(ResultColumn.text(value, unit: unit)) ?? NSNull()
        case .boolean(let flag): return flag
        case .missing: return NSNull()
        }
    }
}
