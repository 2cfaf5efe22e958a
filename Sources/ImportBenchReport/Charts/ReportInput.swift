import ImportBenchCore

/// The results CSVs a report is drawn from, read by `ResultsFile`. Any csv_version works: only the
/// identifying columns and wall_s are required, later columns are used when present.
package struct ReportInput: Sendable {
    /// The columns without which a file is not a results CSV.
    /// Columns describing the machine and build, shown as the report's environment table.
    package static let environmentColumns = [
        "cpu_model", "cpu_count", "os", "sqlite_version", "swift_version", "bench_version", "sqlite_compile_options", "csv_version",
    ]

    /// The paths as given, in order.
    package let files: [String]
    package let runs: [ResultsRow]
    /// Distinct values of each environment column present in any file, sorted.
    package let environment: [String: [String]]

    /// Throws `ResultsInputError`: `malformed` naming the file and line (unreadable, missing a
    /// required column, a ragged row, a value that is not a number or scale), `noRuns` when no file
    /// holds a run.
    package init(paths: [String]) throws {
        var runs: [ResultsRow] = []
        var environment: [String: Set<String>] = [:]
        for path in paths {
            let file = try ResultsFile(results: path)
            for row in file.rows {
                runs.append(try Self.run(from: row, of: file))
                for name in Self.environmentColumns {
                    if let value = row.text(name), !value.isEmpty { environment[name, default: []].insert(value) }
                }
            }
        }
        guard !runs.isEmpty else {
            throw ResultsInputError.noRuns(paths: paths)
        }
        self.files = paths
        self.runs = runs
        self.environment = environment.mapValues { $0.sorted() }
    }

    /// Builds the input from rows already in memory, as tests and other tools hold them.
    package init(runs: [ResultsRow], files: [String] = [], environment: [String: [String]] = [:]) {
        self.files = files
        self.runs = runs
        self.environment = environment
    }

    private static func run(from row: ResultsFile.Row, of file: ResultsFile) throws -> ResultsRow {
        func text(_ name: String) -> String { row.text(name) ?? "" }
        let scaleText = text("scale")
        let scale: RunSize
        if let parsed = Scale(parsing: scaleText) {
            scale = RunSize(parsed)
        } else if scaleText == PayloadSource.recordedScale, let records = try row.number("records") {
            scale = RunSize(recordedWith: records)
        } else {
            throw ResultsFile.Location(path: file.path).error(
                line: row.line, column: "scale", expected: "a scale such as 0.5x or 2x, or \(PayloadSource.recordedScale)",
                found: scaleText.isEmpty ? "nothing" : "'\(scaleText)'")
        }
        let valid = text("valid")
        return ResultsRow(
            scenario: text("scenario"), strategy: text("strategy"), role: text("role"), scale: scale, preload: text("preload"),
            batchSize: text("batch_size"), repetition: try row.number("repetition").flatMap { Int(exactly: $0) },
            journalMode: text("journal_mode"), synchronous: text("synchronous"), probeHz: text("probe_reads_hz"),
            pragmas: text("pragmas"), decodeAhead: text("decode_ahead").isEmpty ? "off" : text("decode_ahead"), resumedFrom: text("resumed_from"),
            valid: valid.isEmpty ? nil : valid == "true", values: try row.numbers())
    }
}
