import Foundation
import ImportBenchCore

/// Writes results as CSV under the contract of `ResultColumns`.
package enum CSVReport {
    package static func render(_ results: [RunResult]) -> String {
        var text = CSVWriter.record(ResultColumns.names)
        for (result, context) in zip(results, ResultColumn.RunContext.contexts(of: results)) {
            text += CSVWriter.record(ResultColumns.columns.map { $0.text(result, context) })
        }
        return text
    }

    package static func write(_ results: [RunResult], to path: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(render(results).utf8).write(to: url, options: .atomic)
    }
}
