import Foundation
import Testing
@testable import ImportBenchCore
import ImportBenchStore

@Suite("reader probe")
struct ReaderProbeTests {
    @Test("percentiles come from the histogram; a query that overran its tick also stands for the ticks it delayed")
    func coordinatedOmissionCorrection() {
        var latencies = ReaderLatencies(hz: 100)
        for _ in 0..<99 { latencies.record(latency: 0.001, blocked: 0) }
        latencies.record(latency: 0.100, blocked: 0.095)
        #expect(latencies.queries == 100)
        // 100 ms at a 10 ms interval hides the nine ticks at 90, 80, ..., 10 ms.
        #expect(latencies.recordedCount == 109)
        let summary = latencies.summary
        #expect(summary.hz == 100)
        #expect(summary.queries == 100)
        #expect(abs(summary.p50Seconds - 0.001) < 0.000_002)
        // Uncorrected, the 99th percentile of these queries would be 1 ms; the 108th of 109 values is 90 ms.
        #expect(summary.p99Seconds >= 0.090 && summary.p99Seconds < 0.0901)
        #expect(summary.maxSeconds == 0.100)
        #expect(summary.longestBlockedSeconds == 0.095)
    }

    @Test("queries within their tick are recorded once each")
    func noCorrectionWithinTheInterval() {
        var latencies = ReaderLatencies(hz: 60)
        for index in 1...50 { latencies.record(latency: Double(index) / 10_000, blocked: 0) }
        #expect(latencies.recordedCount == 50)
        #expect(abs(latencies.summary.p50Seconds - 0.0025) < 0.000_005)
        #expect(latencies.summary.longestBlockedSeconds == 0)
    }

    /// A store with rows, in the given journal mode, and a probe reading it.
    private func store(journal: StoreSettings.Journal, in directory: TemporaryDirectory) throws -> (Connection, String) {
        let path = directory.path("probe.sqlite")
        let writer = try Connection(path: path)
        try writer.execute("PRAGMA journal_mode = \(journal.rawValue.uppercased()); PRAGMA busy_timeout = 60000")
        try writer.execute("CREATE TABLE item (pk INTEGER PRIMARY KEY, name TEXT)")
        try writer.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100) INSERT INTO item (name) SELECT 'item ' || i FROM n")
        return (writer, path)
    }

    private func waitForQueries(_ probe: ReaderProbe, beyond count: Int) {
        while probe.completedQueries.load(ordering: .relaxed) <= count { usleep(1_000) }
    }

    @Test("with a rollback journal, a reader waits for the writer's exclusive lock; the wait is measured")
    func rollbackJournalBlocksTheReader() throws {
        let directory = try TemporaryDirectory()
        let (writer, path) = try store(journal: .delete, in: directory)
        let probe = ReaderProbe(databasePath: path, query: "SELECT pk, name FROM item ORDER BY pk DESC LIMIT 50", hz: 200)
        waitForQueries(probe, beyond: 2)
        try writer.execute("BEGIN EXCLUSIVE")
        try writer.execute("UPDATE item SET name = name || '!'")
        let held = probe.completedQueries.load(ordering: .relaxed)
        Thread.sleep(forTimeInterval: 0.5)
        try writer.execute("COMMIT")
        waitForQueries(probe, beyond: held + 2)
        let summary = try probe.stop()
        // The probe queries every 5 ms, so it met the lock well before it was released.
        #expect(summary.longestBlockedSeconds >= 0.25)
        #expect(summary.maxSeconds >= summary.longestBlockedSeconds)
        #expect(summary.p50Seconds <= summary.p99Seconds && summary.p99Seconds <= summary.maxSeconds + 0.001)
        #expect(summary.queries >= held + 2)
        #expect(summary.hz == 200)
    }

    @Test("in WAL mode the same write transaction never blocks the reader")
    func walNeverBlocksTheReader() throws {
        let directory = try TemporaryDirectory()
        let (writer, path) = try store(journal: .wal, in: directory)
        let probe = ReaderProbe(databasePath: path, query: "SELECT pk, name FROM item ORDER BY pk DESC LIMIT 50", hz: 200)
        waitForQueries(probe, beyond: 2)
        try writer.execute("BEGIN EXCLUSIVE")
        try writer.execute("UPDATE item SET name = name || '!'")
        let held = probe.completedQueries.load(ordering: .relaxed)
        Thread.sleep(forTimeInterval: 0.2)
        try writer.execute("COMMIT")
        waitForQueries(probe, beyond: held + 2)
        let summary = try probe.stop()
        #expect(summary.longestBlockedSeconds == 0)
        #expect(summary.queries >= held + 2)
    }

    @Test("a query the store cannot run stops the probe with SQLite's message")
    func failingQuery() throws {
        let directory = try TemporaryDirectory()
        let (_, path) = try store(journal: .wal, in: directory)
        let probe = ReaderProbe(databasePath: path, query: "SELECT missing FROM item", hz: 100)
        #expect {
            try probe.stop()
        } throws: { error in
            "\(error)".contains("reader probe") && "\(error)".contains("no such column: missing")
        }
    }

    @Test("each scenario's screen query runs on its schema and shows rows after an import", arguments: ScenarioRegistry.names)
    func screenQueries(name: String) throws {
        let scenario = try #require(ScenarioRegistry.scenario(named: name))
        let directory = try TemporaryDirectory()
        let payload = directory.path("payload")
        try scenario.generate(scale: 0.05, seed: 1, to: payload)
        let run = ImportRun(
            scenario: scenario, payloadPath: payload, strategy: UpsertStrategy.self, batchSize: .all,
            databasePath: directory.path("store.sqlite"))
        _ = try run.execute()
        let store = try Connection(path: run.databasePath)
        let statement = try store.prepare(scenario.screenQuery)
        var rows = 0
        while try statement.step() { rows += 1 }
        withExtendedLifetime(store) {}
        #expect(rows > 0)
    }

    @Test("probing changes no count and no data: the reader's statements and allocations are its own",
          arguments: [StoreSettings.Journal.delete, .wal])
    func probedRunMatchesUnprobed(journal: StoreSettings.Journal) throws {
        let directory = try TemporaryDirectory()
        let scenario = ChatScenario()
        let payload = directory.path("chat.json")
        try scenario.generate(scale: 0.05, seed: 3, to: payload)
        func run(probe: Int?, _ name: String) throws -> ImportMeasurement {
            try ImportRun(
                scenario: scenario, payloadPath: payload, strategy: PrewarmStrategy.self, batchSize: .all,
                databasePath: directory.path(name), settings: StoreSettings(journal: journal), probeReadsHz: probe
            ).execute()
        }
        let plain = try run(probe: nil, "plain.sqlite")
        // A fast reader, so the writer's COMMIT meets it: the writer must wait, not fail with SQLITE_BUSY.
        let probed = try run(probe: 1000, "probed.sqlite")
        #expect(plain.readerProbe == nil)
        let summary = try #require(probed.readerProbe)
        #expect(summary.queries >= 1)
        #expect(probed.counts == plain.counts)
        #expect(probed.rowsWritten == plain.rowsWritten)
        #expect(probed.digest == plain.digest)
        #expect(probed.longestWriteTransactionSeconds > 0 && probed.longestWriteTransactionSeconds <= probed.wallSeconds)
    }
}
