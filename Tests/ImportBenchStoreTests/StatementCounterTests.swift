import Foundation
import ImportBenchStore
import Testing

@Suite("Counted store")
struct StatementCounterTests {
    private func freshConnection() throws -> (StoreConnection, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("importbench-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return (try StoreConnection(path: directory.appendingPathComponent("s.sqlite").path), directory)
    }

    @Test(
        "statement kinds are classified from their SQL",
        arguments: [
            ("SELECT pk FROM t WHERE k = ?", StatementKind.fetch),
            ("  -- comment\n select 1", .fetch),
            ("/* x */ INSERT INTO t (k) VALUES (?)", .insert),
            ("INSERT INTO t (k) VALUES (?) ON CONFLICT DO NOTHING", .insert),
            ("INSERT INTO t (k) VALUES (?) ON CONFLICT(k) DO UPDATE SET k = excluded.k RETURNING pk", .upsert),
            ("UPDATE t SET a = ? WHERE pk = ?", .update),
            ("DELETE FROM t", .delete),
            ("BEGIN IMMEDIATE", .other),
            ("PRAGMA foreign_keys = ON", .other),
            ("WITH x AS (SELECT 1) SELECT * FROM x", .fetch),
        ])
    func classification(sql: String, kind: StatementKind) {
        #expect(StatementKind(sql: sql) == kind)
    }

    @Test("counters agree with sqlite3_trace_v2, statement by statement")
    func countersMatchTrace() throws {
        let (store, directory) = try freshConnection()
        defer { try? FileManager.default.removeItem(at: directory) }
        try store.execute("CREATE TABLE t (pk INTEGER PRIMARY KEY, k TEXT UNIQUE, v INTEGER)")

        var traced: [String] = []
        store.traceStatements { traced.append($0) }
        let before = store.counter.counts

        let insert = try store.prepare("INSERT INTO t (k, v) VALUES (?, ?)")
        let select = try store.prepare("SELECT pk, v FROM t WHERE k = ?")
        let upsert = try store.prepare("INSERT INTO t (k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v RETURNING pk")
        let update = try store.prepare("UPDATE t SET v = v + 1 WHERE k = ?")
        try store.inTransaction {
            for index in 0..<20 {
                insert.bind(.text("k\(index)"), at: 1)
                insert.bind(.integer(Int64(index)), at: 2)
                try insert.execute()
            }
            for index in 0..<30 {
                select.bind(.text("k\(index)"), at: 1)
                _ = try select.scalarInt64()
            }
            for index in 15..<25 {
                upsert.bind(.text("k\(index)"), at: 1)
                upsert.bind(.integer(0), at: 2)
                _ = try upsert.scalarInt64()
            }
            update.bind(.text("k1"), at: 1)
            try update.execute()
            try store.execute("DELETE FROM t WHERE v = 0")
        }
        store.stopTracing()
        let counts = store.counter.counts - before

        let tracedKinds = traced.filter { !$0.hasPrefix("--") }.map(StatementKind.init(sql:))
        #expect(counts.statements == tracedKinds.count)
        for kind in StatementKind.allCases {
            #expect(counts[kind] == tracedKinds.filter { $0 == kind }.count, "kind \(kind)")
        }
        #expect(counts.fetches == 30)
        #expect(counts.inserts == 20)
        #expect(counts.upserts == 10)
        #expect(counts.updates == 1)
        #expect(counts.deletes == 1)
        #expect(counts.transactions == 1)
        #expect(counts.vmSteps > 0)
    }

    @Test("a failed statement raises StoreError with the extended code and the SQL")
    func constraintError() throws {
        let (store, directory) = try freshConnection()
        defer { try? FileManager.default.removeItem(at: directory) }
        try store.execute("CREATE TABLE t (k TEXT NOT NULL UNIQUE)")
        let insert = try store.prepare("INSERT INTO t (k) VALUES (?)")
        insert.bind(.text("a"), at: 1)
        try insert.execute()
        let error = #expect(throws: StoreError.self) { try insert.execute() }
        #expect(error?.extendedCode == 2067)  // SQLITE_CONSTRAINT_UNIQUE
        #expect(error?.isConstraintViolation == true)
        #expect(error?.sql == "INSERT INTO t (k) VALUES (?)")
    }

    @Test("a rolled-back transaction leaves nothing and counts no commit")
    func rollback() throws {
        let (store, directory) = try freshConnection()
        defer { try? FileManager.default.removeItem(at: directory) }
        try store.execute("CREATE TABLE t (k TEXT NOT NULL UNIQUE)")
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try store.inTransaction {
                try store.execute("INSERT INTO t VALUES ('x')")
                throw Abort()
            }
        }
        #expect(try store.prepare("SELECT count(*) FROM t").scalarInt64() == 0)
        #expect(store.counter.counts.transactions == 0)
        #expect(store.isAutocommit)
    }

    @Test(
        "text, integer, real and null round-trip, the empty string included",
        arguments: [
            StoreValue.text(""), .text("héllo \"quoted\""), .integer(-7), .real(2.5), .null,
        ])
    func valuesRoundTrip(value: StoreValue) throws {
        let (store, directory) = try freshConnection()
        defer { try? FileManager.default.removeItem(at: directory) }
        let select = try store.prepare("SELECT ?")
        select.bind(value, at: 1)
        #expect(try select.step())
        #expect(select.value(at: 0) == value)
        select.reset()
    }

    @Test("opening a path in a missing directory fails with the path in the message")
    func openFailure() {
        let error = #expect(throws: StoreError.self) { _ = try StoreConnection(path: "/nonexistent-dir/x/y.sqlite") }
        #expect(error?.message.contains("/nonexistent-dir/x/y.sqlite") == true)
    }
}

@Suite("Last insert rowid")
struct LastInsertRowidTests {
    @Test("an upsert that updates leaves a cleared last insert rowid at 0; one that inserts sets it")
    func upsertPaths() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("importbench-rowid-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try StoreConnection(path: directory.appendingPathComponent("s.sqlite").path)
        try store.execute("CREATE TABLE t (pk INTEGER PRIMARY KEY, k TEXT NOT NULL UNIQUE, v INTEGER)")
        let upsert = try store.prepare("INSERT INTO t (k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v")

        store.lastInsertRowid = 0
        upsert.bind(.text("a"), at: 1)
        upsert.bind(Int64(1), at: 2)
        try upsert.execute()
        #expect(store.lastInsertRowid == 1)

        store.lastInsertRowid = 0
        upsert.bind(.text("a"), at: 1)
        upsert.bind(Int64(2), at: 2)
        try upsert.execute()
        #expect(store.lastInsertRowid == 0)
        #expect(try store.prepare("SELECT v FROM t WHERE k = 'a'").scalarInt64() == 2)

        store.lastInsertRowid = 0
        upsert.bind(.text("b"), at: 1)
        try upsert.execute()
        #expect(store.lastInsertRowid == 2)
    }
}
