import Foundation
import ImportBenchCore

/// The results contract: one row per run, columns in this order, units in the names. Adding a
/// column appends it and bumps `version`; renaming or reordering is a breaking change. Each column
/// is declared once here (see `ResultColumn`); every writer, reader and judge of results takes its
/// columns from this list.
package enum ResultColumns {
    package static let version = 12

    private static func count(
        _ name: String, _ judgement: ResultColumn.Judgement = .exact, table heading: String? = nil,
        chart: ResultColumn.Chart? = nil, _ value: @escaping @Sendable (RunResult) -> Int
    ) -> ResultColumn {
        ResultColumn(
            name, .integer, judgement, table: heading.map { .init(heading: $0, summary: .count, visibility: .always) }, chart: chart
        ) { r, _ in .integer(Int64(value(r))) }
    }

    /// A count of what the run executed: empty where nothing observed it (a command whose SQLite is
    /// its own), never a zero that would read as "executed nothing".
    private static func executed(
        _ name: String, _ judgement: ResultColumn.Judgement = .exact, table heading: String? = nil,
        chart: ResultColumn.Chart? = nil, _ value: @escaping @Sendable (RunResult) -> Int
    ) -> ResultColumn {
        ResultColumn(
            name, .integer, judgement, table: heading.map { .init(heading: $0, summary: .count, visibility: .always) }, chart: chart
        ) { r, _ in r.measurement.countedAt == .notObserved ? .missing : .integer(Int64(value(r))) }
        .countingExecution()
    }

    /// The counts of what a run executed, which a command's row may leave empty (not observed).
    package static var executionColumns: Set<String> { Set(columns.filter(\.countsExecution).map(\.name)) }

    private static func seconds(
        _ name: String, tolerance: Double? = nil, table: ResultColumn.TableColumn? = nil, chart: ResultColumn.Chart? = nil,
        _ value: @escaping @Sendable (RunResult) -> Double?
    ) -> ResultColumn {
        ResultColumn(name, .seconds, .measured, tolerance: tolerance, table: table, chart: chart) { r, _ in value(r).map { .real($0) } ?? .missing }
    }

    private static func text(_ name: String, _ value: @escaping @Sendable (RunResult) -> String) -> ResultColumn {
        ResultColumn(name, .text) { r, _ in .text(value(r)) }
    }

    private static func integer(_ name: String, _ value: @escaping @Sendable (RunResult) -> Int64?) -> ResultColumn {
        ResultColumn(name, .integer) { r, _ in value(r).map { .integer($0) } ?? .missing }
    }

    /// Seen in the worst of the repetitions, in milliseconds, when the run was probed.
    private static func probedMilliseconds(_ heading: String) -> ResultColumn.TableColumn {
        ResultColumn.TableColumn(heading: heading, summary: .worstMilliseconds, visibility: .whenProbed)
    }

    package static let columns: [ResultColumn] = [
        text("scenario") { $0.scenario },
        text("strategy") { $0.strategy },
        text("scale") { $0.scale },
        // A seed beyond Int64 stays exact as text.
        ResultColumn("seed", .integer) { r, _ in Int64(exactly: r.seed).map { .integer($0) } ?? .text(String(r.seed)) },
        text("preload") { $0.preload ?? "" },
        text("batch_size") { $0.batchSize.description },
        integer("repetition") { Int64($0.repetition) },
        count("records", .correctness, table: "occurrences") { $0.records },
        count("unique_records", .correctness, table: "objects") { $0.uniqueRecords },
        count("objects_inserted", .correctness) { $0.outcome.inserted },
        count("objects_updated", .correctness) { $0.outcome.updated },
        count("objects_unchanged", .correctness) { $0.outcome.unchanged },
        executed(
            "fetch_count", table: "fetches",
            chart: .init(
                slug: "fetches", heading: "Fetches", place: 2, kind: .growth, what: "fetches (SELECT statements)", axisTitle: "fetches",
                explanation:
                    "SELECT statements each import executed. A strategy with no fetch at any size has nothing to draw on a log axis; the legend still lists it.",
                zeroNote: "No run executed a fetch", zeroLabel: "no fetches"
            )
        ) { $0.measurement.counts.fetches },
        executed("insert_count") { $0.measurement.counts.inserts },
        executed("update_count") { $0.measurement.counts.updates },
        executed("upsert_count") { $0.measurement.counts.upserts },
        executed("delete_count") { $0.measurement.counts.deletes },
        executed("statement_count", table: "statements") { $0.measurement.counts.statements },
        executed("transaction_count", table: "txns") { $0.measurement.counts.transactions },
        executed("rows_written", .correctness) { Int($0.measurement.rowsWritten) },
        executed("vm_steps", .exactForOneSQLite) { Int($0.measurement.counts.vmSteps) },
        // 15 %: the ratio to the C reference is not the same on every state of a machine. Against a
        // baseline recorded hours earlier, unchanged code read up to 11 % lower on a scenario whose
        // time is mostly decoding (quakes, debug build), which the C reference's inserts do not share.
        seconds(
            "wall_s", tolerance: 0.15,
            table: .init(heading: "wall s", summary: .medianWithRatios(to: [.limit, .startingPoint]), visibility: .always),
            chart: .init(
                slug: "time", heading: "Wall time", place: 1, kind: .growth, what: "wall time", axisTitle: "wall time, s",
                explanation:
                    "Wall time of each import against the payload's size, both on log scales: a straight line of slope k means time grows as size^k (k = 1 linear, k = 2 quadratic)."
            )
        ) { $0.measurement.wallSeconds },
        ResultColumn("wall_ratio_to_ceiling", .ratio, .measured) { r, c in
            c.ceilingWallSeconds.map { .real(r.measurement.wallSeconds / $0) } ?? .missing
        },
        seconds("cpu_user_s") { $0.measurement.cpuUserSeconds },
        seconds("cpu_sys_s") { $0.measurement.cpuSystemSeconds },
        // Measured inside an import of bench's; empty for a command, seen only from outside.
        seconds("decode_s") { $0.measurement.measuredInside ? $0.measurement.decodeSeconds : nil },
        seconds("write_s") { $0.measurement.measuredInside ? $0.measurement.writeSeconds : nil },
        seconds("commit_s") { $0.measurement.measuredInside ? $0.measurement.commitSeconds : nil },
        ResultColumn(
            "peak_rss_bytes", .bytes, .measured, tolerance: 0.25, table: .init(heading: "peak RSS MB", summary: .worstMegabytes, visibility: .always),
            chart: .init(
                slug: "memory", heading: "Peak memory", place: 3, kind: .barsByScale, what: "peak memory", axisTitle: "peak RSS, MB",
                explanation: "Peak resident set size of the process that ran the import.", detail: "resident set size of the importing process")
        ) { r, _ in .integer(r.measurement.peakRSSBytes) },
        ResultColumn("allocated_bytes", .bytes, .measured, tolerance: 0.10) { r, _ in
            r.measurement.measuredInside ? .integer(Int64(clamping: r.measurement.allocatedBytes)) : .missing
        },
        ResultColumn("peak_allocated_bytes", .bytes, .measured) { r, _ in
            guard r.measurement.measuredInside, let peak = r.measurement.peakAllocatedBytes else { return .missing }
            return .integer(Int64(clamping: peak))
        },
        // Not judged: jemalloc's count moves with the allocator's own bookkeeping.
        integer("malloc_count") { $0.measurement.measuredInside ? Int64(clamping: $0.measurement.mallocCount) : nil },
        ResultColumn("db_bytes", .bytes, .measured) { r, _ in .integer(r.measurement.databaseBytes) },
        ResultColumn("digest", .text, .correctness) { r, _ in .text(r.digest) },
        ResultColumn("valid", .boolean, .correctness, table: .init(heading: "valid", summary: .verdict, visibility: .always)) { r, _ in
            .boolean(r.valid)
        },
        text("sqlite_version") { $0.sqliteVersion },
        text("bench_version") { $0.benchVersion },
        text("swift_version") { $0.environment.swiftVersion },
        text("cpu_model") { $0.environment.cpuModel },
        integer("cpu_count") { Int64($0.environment.cpuCount) },
        text("os") { $0.environment.operatingSystem },
        text("sqlite_compile_options") { $0.environment.sqliteCompileOptions.joined(separator: " ") },
        integer("csv_version") { _ in Int64(version) },
        // Version 2. Empty for a whole import; "pass/batch" where a checkpointed one resumed: its counts cover only the rest.
        ResultColumn("resumed_from", .text) { r, _ in r.measurement.resumedFrom.map { .text("\($0.pass)/\($0.batches)") } ?? .missing }.since(2),
        text("journal_mode") { $0.settings.journal.rawValue }.since(2),
        text("synchronous") { $0.settings.synchronous.rawValue }.since(2),
        // Version 3. The probe's columns are empty when the run was not probed (--probe-reads).
        seconds("longest_write_txn_s", table: probedMilliseconds("longest txn ms")) { $0.measurement.longestWriteTransactionSeconds }.since(3),
        integer("probe_reads_hz") { $0.measurement.readerProbe.map { Int64($0.hz) } }.since(3),
        integer("reader_queries") { $0.measurement.readerProbe.map { Int64($0.queries) } }.since(3),
        seconds("reader_p50_s") { $0.measurement.readerProbe?.p50Seconds }.since(3),
        seconds(
            "reader_p99_s", table: probedMilliseconds("reader p99 ms"),
            chart: .init(
                slug: "reader-p99", heading: "Reader latency (p99)", place: 4, kind: .byBatchSize, what: "reader p99 latency",
                axisTitle: "reader p99, ms",
                explanation:
                    "The 99th percentile of a second connection's screen query while the import writes, its wait for the writer's lock included: above the dotted line, a 60 Hz interface drops a frame. WAL runs are drawn solid, rollback-journal (delete) runs dashed.",
                missingNote: ChartReport.unprobedNote)
        ) { $0.measurement.readerProbe?.p99Seconds }.since(3),
        seconds("reader_max_s", table: probedMilliseconds("reader max ms")) { $0.measurement.readerProbe?.maxSeconds }.since(3),
        seconds("reader_longest_blocked_s") { $0.measurement.readerProbe?.longestBlockedSeconds }.since(3),
        // Version 4. The C reference's time for the rows the same repetition's ceiling wrote (empty
        // when no ceiling ran), and the payload's size, so decode rates and the harness's share follow.
        seconds("c_reference_s") { $0.cReferenceSeconds }.since(4),
        // The input's size describes the run; it is no metric to judge.
        ResultColumn("payload_bytes", .bytes) { r, _ in .integer(r.payloadBytes) }.since(4),
        // Version 5. What the strategy is for (user, baseline, reference, pitfall, alternative), so a
        // reader of the CSV finds the ceiling and the baseline without knowing their names.
        text("role") { $0.role.rawValue }.since(5),
        // Version 6. The C reference's CPU time over the same span as c_reference_s: what compare
        // divides an import's CPU time by, as another process on the machine inflates neither.
        seconds("c_reference_cpu_s") { $0.cReferenceCPUSeconds }.since(6),
        // Version 7. What made the numbers: a timing is comparable only with one of the same build
        // on the same machine (compare refuses other builds' timings and names other machines).
        text("build_config") { $0.build.configuration }.since(7),
        text("git_revision") { $0.build.revision }.since(7),
        text("kernel") { $0.environment.kernel }.since(7),
        text("cpu_signature") { $0.environment.cpuSignature }.since(7),
        // User-space instructions of the import alone, where the machine offers the counter; judged
        // like a time. Empty otherwise, and instructions_note says why.
        ResultColumn("instructions", .integer, .measured, tolerance: 0.05) { r, _ in
            r.measurement.instructions.map { .integer(Int64(clamping: $0)) } ?? .missing
        }.since(7),
        text("instructions_note") { $0.measurement.instructionsNote ?? "" }.since(7),
        // Version 8. Where the counts were taken: connection (bench's own) or sqlite (a trace on
        // every connection of the measuring process, as for a plug-in's strategy; its times include
        // the trace's cost).
        text("counted_at") { $0.measurement.countedAt.rawValue }.since(8),
        // Version 9: the `--pragma` settings, `temp_store=memory;cache_size=-65536`; empty without them.
        text("pragmas") { $0.settings.pragmaText }.since(9),
        // Version 10: on when each next batch was decoded on a thread of its own (`--decode-ahead`),
        // off otherwise.
        text("decode_ahead") { $0.decodeAhead ? "on" : "off" }.since(10),
        // Version 11 (issue 46): c_reference_s is SQLite's limit (rows in pk order, several per
        // INSERT, indexes built after them), loaded with this many rows per INSERT; the plain replay
        // of earlier versions (one row per INSERT, indexes first) stays one release beside it.
        integer("c_reference_rows_per_insert") { $0.cReferenceRowsPerInsert.map(Int64.init) }.since(11),
        seconds("c_reference_plain_s") { $0.cReferencePlainSeconds }.since(11),
        // Version 12 (issue 46): the way a strategy took instead of its own where the store ruled its
        // own out (bulk on a store that holds rows: "indexes kept"); empty when it went its own way.
        ResultColumn("fallback", .text) { r, _ in r.measurement.fallback.map { .text($0) } ?? .missing }.since(12),
    ]

    package static var names: [String] { columns.map(\.name) }

    /// The column named `name`, if the contract has one.
    package static func column(named name: String) -> ResultColumn? {
        columns.first { $0.name == name }
    }

    /// How the column named `name` is judged; `.none` for a name that is not a column.
    static func judgement(of name: String) -> ResultColumn.Judgement {
        column(named: name)?.judgement ?? .none
    }

    /// The columns `bench report` charts, in the order their charts appear on the page.
    package static var charted: [ResultColumn] {
        columns.filter { $0.chart != nil }.sorted { ($0.chart?.place ?? 0) < ($1.chart?.place ?? 0) }
    }
}
