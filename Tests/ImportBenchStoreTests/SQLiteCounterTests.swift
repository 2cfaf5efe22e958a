import Foundation
import ImportBenchStore
import Testing

/// The SQLite-level counter against bench's own: the same statements, run on a connection each
/// counts, must give the same numbers. Each test traces its own connection only (`.always`), so
/// tests running beside it are never traced.
@Suite("SQLite-level counter")
struct SQLiteCounterTests {
    private func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("importbench-sqlcounter-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// What an import does: schema with a trigger and a cascade, inserts, finds, updates, upserts,
    /// deletes, one-off statements finalized at once, a rolled-back transaction, committed ones.
    private func workload(_ store: StoreConnection) throws {
        try store.execute(
            """
            CREATE TABLE parent (pk INTEGER PRIMARY KEY, k TEXT UNIQUE NOT NULL, v INTEGER);
            CREATE TABLE child (pk INTEGER PRIMARY KEY, parent_pk INTEGER REFERENCES parent(pk) ON DELETE CASCADE, n INTEGER);
            CREATE TABLE audit (n INTEGER);
            CREATE TRIGGER parent_audit AFTER UPDATE ON parent BEGIN INSERT INTO audit (n) VALUES (new.v); END
            """)
        let insert = try store.prepare("INSERT INTO parent (k, v) VALUES (?, ?)")
        let find = try store.prepare("SELECT pk, v FROM parent WHERE k = ?")
        let update = try store.prepare("UPDATE parent SET v = ? WHERE pk = ?")
        let upsert = try store.prepare("INSERT INTO parent (k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v")
        let addChild = try store.prepare("INSERT INTO child (parent_pk, n) VALUES (?, ?)")
        for batch in 0..<3 {
            try store.inTransaction {
                for index in 0..<20 {
                    let key = "k\(index % 12)"
                    find.bind(.text(key), at: 1)
                    let found = try find.step() ? find.int64(at: 0) : nil
                    find.reset()
                    if let pk = found {
                        update.bind(Int64(batch * 100 + index), at: 1)
                        update.bind(pk, at: 2)
                        try update.execute()
                    } else {
                        insert.bind(.text(key), at: 1)
                        insert.bind(Int64(index), at: 2)
                        try insert.execute()
                        addChild.bind(store.lastInsertRowid, at: 1)
                        addChild.bind(Int64(index), at: 2)
                        try addChild.execute()
                    }
                    upsert.bind(.text("u\(index % 5)"), at: 1)
                    upsert.bind(Int64(index), at: 2)
                    try upsert.execute()
                }
            }
        }
        // One-off statements, each prepared, run and finalized: SQLite may give the next one the
        // address of the last, which the counter must not take for the same statement.
        for index in 0..<10 {
            try store.execute("SELECT count(*) FROM parent WHERE v > \(index)")
            try store.execute("UPDATE parent SET v = v + 1 WHERE k = 'k\(index)'")
        }
        try store.begin()
        try store.execute("DELETE FROM parent WHERE k = 'k1'")
        try store.rollback()
        try store.inTransaction { try store.execute("DELETE FROM parent WHERE k = 'k2'") }
    }

    @Test("the same statements count the same at the SQLite level as on bench's connection")
    func sameCountsBothWays() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try SQLiteCounter.install()
        let plain = try StoreConnection(path: directory.appendingPathComponent("plain.sqlite").path, tracing: .never)
        let traced = try StoreConnection(path: directory.appendingPathComponent("traced.sqlite").path, tracing: .always)
        try workload(plain)
        try workload(traced)

        let counted = try #require(traced.tracedCounts)
        #expect(counted.statements.fetches == plain.counter.counts.fetches)
        #expect(counted.statements.inserts == plain.counter.counts.inserts)
        #expect(counted.statements.updates == plain.counter.counts.updates)
        #expect(counted.statements.upserts == plain.counter.counts.upserts)
        #expect(counted.statements.deletes == plain.counter.counts.deletes)
        #expect(counted.statements.others == plain.counter.counts.others)
        #expect(counted.statements.transactions == plain.counter.counts.transactions)
        #expect(counted.statements.vmSteps == plain.counter.counts.vmSteps)
        #expect(counted.rowsWritten == plain.totalChanges)
        // The workload is no empty one: every kind ran.
        #expect(plain.counter.counts.fetches > 0 && plain.counter.counts.upserts > 0 && plain.counter.counts.deletes > 0)
        #expect(plain.counter.counts.transactions == 4)
        #expect(plain.counter.counts.vmSteps > 0)
    }

    @Test("a traced connection's own counter leaves the VM step count to the SQLite-level one")
    func vmStepsReadOnce() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try SQLiteCounter.install()
        let traced = try StoreConnection(path: directory.appendingPathComponent("traced.sqlite").path, tracing: .always)
        try workload(traced)
        #expect(traced.counter.counts.vmSteps == 0)
        #expect(try #require(traced.tracedCounts).statements.vmSteps > 0)
    }

    @Test("a connection opened while tracing is off is not traced, nor one opened with .never")
    func untraced() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try SQLiteCounter.install()
        let store = try StoreConnection(path: directory.appendingPathComponent("store.sqlite").path, tracing: .never)
        let before = store.counter.counts
        try store.execute("CREATE TABLE t (k INTEGER)")
        #expect(store.tracedCounts == nil)
        #expect((store.counter.counts - before).others == 1)
        #expect(store.counter.counts.vmSteps > before.vmSteps)
    }

    @Test("a traced connection that closes reports it; closing adds what it counted to the process's total")
    func closingReports() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try SQLiteCounter.install()
        let before = SQLiteCounter.counts
        do {
            let store = try StoreConnection(path: directory.appendingPathComponent("store.sqlite").path, tracing: .always)
            try store.execute("CREATE TABLE t (k INTEGER)")
            try store.execute("INSERT INTO t VALUES (1)")
        }
        let after = SQLiteCounter.counts
        // Other suites' connections are never traced (each test traces its own), so these are ours.
        #expect(after.connectionsTraced - before.connectionsTraced >= 1)
        #expect(after.connectionsClosed - before.connectionsClosed >= 1)
        #expect(after.statements.inserts - before.statements.inserts >= 1)
    }
}
