import Foundation
import ImportBenchCore

/// The CSV contract as JSON: one object per run, the same names, typed values.
public enum JSONReport {
    /// Columns that stay strings even when they look numeric (`batch_size` may be `all`).
    static let textColumns: Set<String> = [
        "scenario", "strategy", "scale", "preload", "batch_size", "digest", "sqlite_version", "bench_version",
        "swift_version", "cpu_model", "os", "sqlite_compile_options",
    ]

    public static func render(_ results: [RunResult]) throws -> String {
        let rows: [[String: Any]] = results.map { result in
            let context = ResultColumns.RunContext(ceilingWallSeconds: CSVReport.ceilingWall(for: result, in: results))
            var object: [String: Any] = [:]
            for column in ResultColumns.columns {
                let text = column.value(result, context)
                if textColumns.contains(column.name) {
                    object[column.name] = text
                } else if column.name == "valid" {
                    object[column.name] = text == "true"
                } else if let integer = Int64(text) {
                    object[column.name] = integer
                } else if let real = Double(text) {
                    object[column.name] = real
                } else {
                    object[column.name] = text.isEmpty ? NSNull() : text
                }
            }
            return object
        }
        let data = try JSONSerialization.data(withJSONObject: ["csv_version": ResultColumns.version, "runs": rows], options: [.prettyPrinted, .sortedKeys])
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
