import ImportBenchCore

/// The results CSVs a report is drawn from, read with the project's CSV reader. Any csv_version
/// works: only the identifying columns and wall_s are required, later columns are used when present.
public struct ReportInput: Sendable {
    /// The columns without which a file is not a results CSV.
    public static let requiredColumns = ["scenario", "strategy", "scale", "batch_size", "wall_s"]
    /// Columns describing the machine and build, shown as the report's environment table.
    public static let environmentColumns = [
        "cpu_model", "cpu_count", "os", "sqlite_version", "swift_version", "bench_version", "sqlite_compile_options", "csv_version",
    ]

    /// The paths as given, in order.
    public let files: [String]
    public let runs: [ReportRun]
    /// Distinct values of each environment column present in any file, sorted.
    public let environment: [String: [String]]

    /// Throws `ResultsInputError`: `malformed` naming the file and line (unreadable, missing a
    /// required column, a ragged row, a value that is not a number or scale), `noRuns` when no file
    /// holds a run.
    public init(paths: [String]) throws {
        var runs: [ReportRun] = []
        var environment: [String: Set<String>] = [:]
        for path in paths {
            try ResultsInputError.reading { try Self.read(path, into: &runs, environment: &environment) }
        }
        guard !runs.isEmpty else {
            throw ResultsInputError.noRuns(paths: paths)
        }
        self.files = paths
        self.runs = runs
        self.environment = environment.mapValues { $0.sorted() }
    }

    private static func read(_ path: String, into runs: inout [ReportRun], environment: inout [String: Set<String>]) throws {
        let reader = try CSVRecordReader(path: path)
        let missing = requiredColumns.filter { reader.column(named: $0) == nil }
        guard missing.isEmpty else {
            throw PayloadError(
                file: path, byteOffset: 0, path: "\(reader.fileName) line 1",
                expected: "a bench results CSV with the columns \(requiredColumns.joined(separator: ", "))",
                found: "no column named \(missing.joined(separator: ", "))")
        }
        let environmentIndexes = environmentColumns.compactMap { name in reader.column(named: name).map { (name, $0) } }
        while try reader.nextRow() {
            runs.append(try run(from: reader))
            for (name, index) in environmentIndexes {
                if let value = try reader.text(index) { environment[name, default: []].insert(value) }
            }
        }
    }

    /// Builds the input from rows already in memory, as tests and other tools hold them.
    public init(runs: [ReportRun], files: [String] = [], environment: [String: [String]] = [:]) {
        self.files = files
        self.runs = runs
        self.environment = environment
    }

    private static func run(from reader: CSVRecordReader) throws -> ReportRun {
        func text(_ name: String) throws -> String { try reader.text(reader.column(named: name)) ?? "" }
        func number(_ name: String) throws -> Double? { try reader.real(reader.column(named: name)) }
        let scaleIndex = try reader.requiredColumn("scale")
        let scaleText = try reader.text(scaleIndex) ?? ""
        guard let scale = Scale(parsing: scaleText) else {
            throw reader.error(at: scaleIndex, expected: "a scale such as 0.5x or 2x", found: scaleText.isEmpty ? "nothing" : "'\(scaleText)'")
        }
        let valid = try text("valid")
        return ReportRun(
            scenario: try text("scenario"), strategy: try text("strategy"), scale: scale, preload: try text("preload"),
            batchSize: try text("batch_size"), repetition: try reader.integer(reader.column(named: "repetition")).map { Int($0) },
            records: try number("records"), wallSeconds: try number("wall_s"), fetches: try number("fetch_count"),
            peakRSSBytes: try number("peak_rss_bytes"), readerP99Seconds: try number("reader_p99_s"),
            journalMode: try text("journal_mode"), synchronous: try text("synchronous"), probeHz: try text("probe_reads_hz"),
            resumedFrom: try text("resumed_from"), valid: valid.isEmpty ? nil : valid == "true")
    }
}
