import Foundation
import ImportBenchCore

/// Writes results as CSV under the contract of `ResultColumns`.
public enum CSVReport {
    public static func render(_ results: [RunResult]) -> String {
        var text = CSVWriter.record(ResultColumns.names)
        for result in results {
            let context = ResultColumn.RunContext(of: result, among: results)
            text += CSVWriter.record(ResultColumns.columns.map { $0.text(result, context) })
        }
        return text
    }

    public static func write(_ results: [RunResult], to path: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(render(results).utf8).write(to: url, options: .atomic)
    }

    /// The reference run of the same scenario, scale, batch size and repetition.
    static func ceilingWall(for result: RunResult, in results: [RunResult]) -> Double? {
        results.first {
            $0.role == .reference && $0.scenario == result.scenario && $0.scale == result.scale
                && $0.batchSize == result.batchSize && $0.repetition == result.repetition
        }?.measurement.wallSeconds
    }
}
