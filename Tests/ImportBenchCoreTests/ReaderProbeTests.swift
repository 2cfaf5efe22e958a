import Foundation
import ImportBenchStore
import Synchronization
import Testing

@testable import ImportBenchCore
@testable import ImportBenchStrategies

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

    @Test(
        "percentiles never exceed the exact maximum: p50 <= p99 <= max, though the histogram rounds to the microsecond and answers with bucket bounds",
        arguments: [0.123_456_7, 0.000_777_8, 2.345_678_9])
    func percentilesWithinMax(latency: Double) {
        var latencies = ReaderLatencies(hz: 10)
        for _ in 0..<3 { latencies.record(latency: latency, blocked: 0) }
        let summary = latencies.summary
        #expect(summary.maxSeconds == latency)
        #expect(summary.p50Seconds <= summary.p99Seconds)
        #expect(summary.p99Seconds <= summary.maxSeconds)
        #expect(summary.p99Seconds > latency * 0.999, "clamped, not lost")
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
    private func store(journal: StoreSettings.Journal, in directory: TemporaryDirectory) throws -> (StoreConnection, String) {
        let path = directory.path("probe.sqlite")
        let writer = try StoreConnection(path: path)
        try writer.execute("PRAGMA journal_mode = \(journal.rawValue.uppercased()); PRAGMA busy_timeout = 60000")
        try writer.execute("CREATE TABLE item (pk INTEGER PRIMARY KEY, name TEXT)")
        try writer.execute(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100) INSERT INTO item (name) SELECT 'item ' || i FROM n")
        return (writer, path)
    }

    /// Polls `condition` until it holds; false after 30 s, so a dead probe fails the test instead of hanging it.
    private func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = MonotonicClock.now() + 30
        while !condition() {
            if MonotonicClock.now() > deadline { return false }
            usleep(1_000)
        }
        return true
    }

    @Test(
        "a writer's exclusive lock blocks the reader with a rollback journal, for as long as it is held; never in WAL mode",
        arguments: StoreSettings.Journal.allCases)
    func writerLockAndTheReader(journal: StoreSettings.Journal) throws {
        let directory = try TemporaryDirectory()
        let (writer, path) = try store(journal: journal, in: directory)
        let probe = ReaderProbe(databasePath: path, query: "SELECT pk, name FROM item ORDER BY pk DESC LIMIT 50", hz: 200)
        defer { _ = try? probe.stop() }
        try #require(eventually { probe.completedQueries.load(ordering: .relaxed) >= 2 })
        try writer.execute("BEGIN EXCLUSIVE")
        try writer.execute("UPDATE item SET name = name || '!'")
        let completedBeforeLock = probe.completedQueries.load(ordering: .relaxed)
        switch journal {
        case .delete:
            // Held from before the reader's first refusal until at least 50 ms after it.
            try #require(eventually { probe.busyRetries.load(ordering: .relaxed) > 0 })
            usleep(50_000)
            #expect(probe.completedQueries.load(ordering: .relaxed) <= completedBeforeLock + 1)
        case .wal:
            // The reader goes on while the lock is held.
            try #require(eventually { probe.completedQueries.load(ordering: .relaxed) >= completedBeforeLock + 3 })
        }
        try writer.execute("COMMIT")
        try #require(eventually { probe.completedQueries.load(ordering: .relaxed) >= completedBeforeLock + 5 })
        let summary = try probe.stop()
        switch journal {
        case .delete:
            #expect(summary.longestBlockedSeconds >= 0.05)
            #expect(summary.maxSeconds >= summary.longestBlockedSeconds)
        case .wal:
            #expect(probe.busyRetries.load(ordering: .relaxed) == 0)
            #expect(summary.longestBlockedSeconds == 0)
        }
        #expect(summary.p50Seconds <= summary.p99Seconds)
        #expect(summary.queries == probe.completedQueries.load(ordering: .relaxed))
    }

    @Test("a helper thread's allocations are counted in its own arena, so a run can take them out")
    func helperArenaCountsItsThread() throws {
        // jemalloc is linked into every build (a dependency of the package): its statistics must answer.
        try #require(AllocatorStatistics.isAvailable, "jemalloc's statistics do not answer (mallctl thread.allocated)")
        let counted = Mutex<UInt64>(0)
        let thread = Thread {
            let before = AllocatorStatistics.isolateCurrentThread()
            var kept: [[Int]] = []
            for index in 0..<10_000 { kept.append([index, index + 1]) }
            withExtendedLifetime(kept) {}
            counted.withLock { $0 = AllocatorStatistics.isolatedThreadRequests() &- before }
        }
        thread.start()
        #expect(eventually { counted.withLock { $0 } > 0 })
        #expect(counted.withLock { $0 } >= 10_000)
    }

    @Test("with a rollback journal, the writer's COMMIT waits for a reader to finish instead of failing with SQLITE_BUSY")
    func commitWaitsForReader() throws {
        let directory = try TemporaryDirectory()
        let scenario = ChatScenario()
        let payload = directory.path("chat.json")
        try scenario.generate(scale: 0.02, seed: 5, to: payload)
        var run = ImportRun(
            scenario: scenario, payloadPath: payload, method: PrewarmStrategy.self, batchSize: .all,
            databasePath: directory.path("store.sqlite"), settings: StoreSettings(journal: .delete))
        let reader = ReaderHold()
        var calls = 0
        // Asked before the batch is written and again before it is committed: there, take a read lock
        // that another thread lets go of 50 ms later.
        run.stopRequested = {
            calls += 1
            if calls == 2 { reader.hold(path: run.databasePath, releaseAfter: 0.05) }
            return false
        }
        let measurement = try run.execute()
        #expect(reader.held)
        #expect(measurement.longestWriteTransactionSeconds >= 0.05)
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
            scenario: scenario, payloadPath: payload, method: UpsertStrategy.self, batchSize: .all,
            databasePath: directory.path("store.sqlite"))
        _ = try run.execute()
        let store = try StoreConnection(path: run.databasePath)
        let statement = try store.prepare(scenario.screenQuery)
        var rows = 0
        while try statement.step() { rows += 1 }
        withExtendedLifetime(store) {}
        #expect(rows > 0)
    }

    @Test(
        "probing changes no count and no data: the reader's statements run on its own connection",
        arguments: [StoreSettings.Journal.delete, .wal])
    func probedRunMatchesUnprobed(journal: StoreSettings.Journal) throws {
        let directory = try TemporaryDirectory()
        let scenario = ChatScenario()
        let payload = directory.path("chat.json")
        try scenario.generate(scale: 0.05, seed: 3, to: payload)
        func run(probe: Int?, _ name: String) throws -> ImportMeasurement {
            try ImportRun(
                scenario: scenario, payloadPath: payload, method: PrewarmStrategy.self, batchSize: .all,
                databasePath: directory.path(name), settings: StoreSettings(journal: journal), probeReadsHz: probe
            ).execute()
        }
        let plain = try run(probe: nil, "plain.sqlite")
        let probed = try run(probe: 1000, "probed.sqlite")
        #expect(plain.readerProbe == nil)
        #expect(probed.readerProbe != nil)
        #expect(probed.counts == plain.counts)
        #expect(probed.rowsWritten == plain.rowsWritten)
        #expect(probed.digest == plain.digest)
        #expect(probed.longestWriteTransactionSeconds > 0 && probed.longestWriteTransactionSeconds <= probed.wallSeconds)
    }
}

/// A read lock on a store, held from another connection and let go of by another thread.
private final class ReaderHold: @unchecked Sendable {
    private var connection: StoreConnection?
    private var statement: StoreStatement?
    private(set) var held = false

    func hold(path: String, releaseAfter seconds: Double) {
        do {
            let connection = try StoreConnection(path: path, readOnly: true)
            let statement = try connection.prepare("SELECT name FROM sqlite_master")
            held = try statement.step()
            self.connection = connection
            self.statement = statement
        } catch {
            Issue.record(error)
            return
        }
        let thread = Thread { [self] in
            usleep(useconds_t(seconds * 1_000_000))
            statement?.reset()
        }
        thread.start()
    }
}
