import Foundation
import ImportBenchCore

/// The CSV contract: one row per run, columns in this order, units in the names. Adding a column
/// appends it and bumps `version`; renaming or reordering is a breaking change.
public enum ResultColumns {
    public static let version = 4

    /// How `bench compare` judges a column: the one place that says so, beside its name and value.
    enum Judgement: Sendable {
        /// Describes the run (its key, settings, environment, digest): not a metric.
        case none
        /// A count, deterministic for a seed: any difference is a change, a rise a regression.
        case exact
        /// Deterministic only for one SQLite build (the VM's steps).
        case exactForOneSQLite
        /// A timing or a size: judged against a relative tolerance.
        case measured
    }

    struct Column: Sendable {
        let name: String
        let judgement: Judgement
        let value: @Sendable (RunResult, RunContext) -> String

        init(name: String, _ judgement: Judgement = .none, value: @escaping @Sendable (RunResult, RunContext) -> String) {
            self.name = name
            self.judgement = judgement
            self.value = value
        }
    }

    /// Facts a row needs from its siblings: the reference run's time in the same repetition.
    struct RunContext: Sendable {
        let ceilingWallSeconds: Double?
    }

    static let columns: [Column] = [
        Column(name: "scenario") { r, _ in r.scenario },
        Column(name: "strategy") { r, _ in r.strategy },
        Column(name: "scale") { r, _ in r.scale },
        Column(name: "seed") { r, _ in String(r.seed) },
        Column(name: "preload") { r, _ in r.preload ?? "" },
        Column(name: "batch_size") { r, _ in r.batchSize.description },
        Column(name: "repetition") { r, _ in String(r.repetition) },
        Column(name: "records", .exact) { r, _ in String(r.records) },
        Column(name: "unique_records", .exact) { r, _ in String(r.uniqueRecords) },
        Column(name: "objects_inserted", .exact) { r, _ in String(r.outcome.inserted) },
        Column(name: "objects_updated", .exact) { r, _ in String(r.outcome.updated) },
        Column(name: "objects_unchanged", .exact) { r, _ in String(r.outcome.unchanged) },
        Column(name: "fetch_count", .exact) { r, _ in String(r.measurement.counts.fetches) },
        Column(name: "insert_count", .exact) { r, _ in String(r.measurement.counts.inserts) },
        Column(name: "update_count", .exact) { r, _ in String(r.measurement.counts.updates) },
        Column(name: "upsert_count", .exact) { r, _ in String(r.measurement.counts.upserts) },
        Column(name: "delete_count", .exact) { r, _ in String(r.measurement.counts.deletes) },
        Column(name: "statement_count", .exact) { r, _ in String(r.measurement.counts.statements) },
        Column(name: "transaction_count", .exact) { r, _ in String(r.measurement.counts.transactions) },
        Column(name: "rows_written", .exact) { r, _ in String(r.measurement.rowsWritten) },
        Column(name: "vm_steps", .exactForOneSQLite) { r, _ in String(r.measurement.counts.vmSteps) },
        Column(name: "wall_s", .measured) { r, _ in seconds(r.measurement.wallSeconds) },
        Column(name: "wall_ratio_to_ceiling", .measured) { r, c in c.ceilingWallSeconds.map { ratio(r.measurement.wallSeconds / $0) } ?? "" },
        Column(name: "cpu_user_s", .measured) { r, _ in seconds(r.measurement.cpuUserSeconds) },
        Column(name: "cpu_sys_s", .measured) { r, _ in seconds(r.measurement.cpuSystemSeconds) },
        Column(name: "decode_s", .measured) { r, _ in seconds(r.measurement.decodeSeconds) },
        Column(name: "write_s", .measured) { r, _ in seconds(r.measurement.writeSeconds) },
        Column(name: "commit_s", .measured) { r, _ in seconds(r.measurement.commitSeconds) },
        Column(name: "peak_rss_bytes", .measured) { r, _ in String(r.measurement.peakRSSBytes) },
        Column(name: "allocated_bytes", .measured) { r, _ in String(r.measurement.allocatedBytes) },
        Column(name: "peak_allocated_bytes", .measured) { r, _ in String(r.measurement.peakAllocatedBytes) },
        Column(name: "malloc_count") { r, _ in String(r.measurement.mallocCount) },
        Column(name: "db_bytes", .measured) { r, _ in String(r.measurement.databaseBytes) },
        Column(name: "digest") { r, _ in r.digest },
        Column(name: "valid") { r, _ in r.valid ? "true" : "false" },
        Column(name: "sqlite_version") { r, _ in r.sqliteVersion },
        Column(name: "bench_version") { r, _ in r.benchVersion },
        Column(name: "swift_version") { r, _ in r.environment.swiftVersion },
        Column(name: "cpu_model") { r, _ in r.environment.cpuModel },
        Column(name: "cpu_count") { r, _ in String(r.environment.cpuCount) },
        Column(name: "os") { r, _ in r.environment.operatingSystem },
        Column(name: "sqlite_compile_options") { r, _ in r.environment.sqliteCompileOptions.joined(separator: " ") },
        Column(name: "csv_version") { _, _ in String(version) },
        // Version 2. Empty for a whole import; "pass/batch" where a checkpointed one resumed: its counts cover only the rest.
        Column(name: "resumed_from") { r, _ in r.measurement.resumedFrom.map { "\($0.pass)/\($0.batches)" } ?? "" },
        Column(name: "journal_mode") { r, _ in r.settings.journal.rawValue },
        Column(name: "synchronous") { r, _ in r.settings.synchronous.rawValue },
        // Version 3. The probe's columns are empty when the run was not probed (--probe-reads).
        Column(name: "longest_write_txn_s", .measured) { r, _ in seconds(r.measurement.longestWriteTransactionSeconds) },
        Column(name: "probe_reads_hz") { r, _ in r.measurement.readerProbe.map { String($0.hz) } ?? "" },
        Column(name: "reader_queries") { r, _ in r.measurement.readerProbe.map { String($0.queries) } ?? "" },
        Column(name: "reader_p50_s", .measured) { r, _ in r.measurement.readerProbe.map { seconds($0.p50Seconds) } ?? "" },
        Column(name: "reader_p99_s", .measured) { r, _ in r.measurement.readerProbe.map { seconds($0.p99Seconds) } ?? "" },
        Column(name: "reader_max_s", .measured) { r, _ in r.measurement.readerProbe.map { seconds($0.maxSeconds) } ?? "" },
        Column(name: "reader_longest_blocked_s", .measured) { r, _ in r.measurement.readerProbe.map { seconds($0.longestBlockedSeconds) } ?? "" },
        // Version 4. The C reference's time for the rows the same repetition's ceiling wrote (empty
        // when no ceiling ran), and the payload's size, so decode rates and the harness's share follow.
        Column(name: "c_reference_s", .measured) { r, _ in r.cReferenceSeconds.map(seconds) ?? "" },
        Column(name: "payload_bytes", .measured) { r, _ in String(r.payloadBytes) },
    ]

    public static var names: [String] { columns.map(\.name) }

    /// How the column named `name` is judged; `.none` for a name that is not a column.
    static func judgement(of name: String) -> Judgement {
        columns.first { $0.name == name }?.judgement ?? .none
    }

    static func seconds(_ value: Double) -> String { String(format: "%.6f", value) }
    static func ratio(_ value: Double) -> String { String(format: "%.3f", value) }
}

/// Writes results as CSV under the contract of `ResultColumns`.
public enum CSVReport {
    public static func render(_ results: [RunResult]) -> String {
        var text = CSVWriter.record(ResultColumns.names)
        for result in results {
            let context = ResultColumns.RunContext(ceilingWallSeconds: ceilingWall(for: result, in: results))
            text += CSVWriter.record(ResultColumns.columns.map { $0.value(result, context) })
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
