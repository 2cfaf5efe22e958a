import Foundation
import ImportBenchCore
import ImportBenchStore
import Testing

/// The counting library preloaded into another program (Python's standard `sqlite3` module here,
/// which uses the system's libsqlite3) against bench's own connection counter: the same statements,
/// the same numbers.
@Suite("The preloaded counter")
struct CounterLibraryCountsTests {
    /// Built by bench's own `CounterLibrary` where bench builds it, beside the debug build (never
    /// in a temporary folder the tests would leave behind).
    static let library: String? = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try? CounterLibrary.path(in: root.appendingPathComponent(".build/debug"))
    }()

    /// One statement and its parameters; the workload both sides run, in order.
    struct Step: Codable {
        let sql: String
        let parameters: [String]
    }

    /// A schema with a cascade, a transaction of upserts, finds, an insert from a select and an
    /// update, then one with a cascading delete and an insert led by WITH.
    static let workload: [Step] = {
        var steps = [
            Step(sql: "PRAGMA foreign_keys = ON", parameters: []),
            Step(sql: "CREATE TABLE parent (pk INTEGER PRIMARY KEY, k TEXT UNIQUE NOT NULL, v TEXT)", parameters: []),
            Step(
                sql: "CREATE TABLE child (pk INTEGER PRIMARY KEY, parent_pk INTEGER REFERENCES parent(pk) ON DELETE CASCADE, n TEXT)", parameters: []),
            Step(sql: "BEGIN IMMEDIATE", parameters: []),
        ]
        for index in 0..<20 {
            steps.append(
                Step(
                    sql: "INSERT INTO parent (k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v",
                    parameters: ["k\(index % 7)", "\(index)"]))
            steps.append(Step(sql: "SELECT pk, v FROM parent WHERE k = ?", parameters: ["k\(index % 5)"]))
        }
        steps += [
            Step(sql: "INSERT INTO child (parent_pk, n) SELECT pk, v FROM parent", parameters: []),
            Step(sql: "UPDATE parent SET v = v || '+' WHERE k > 'k3'", parameters: []),
            Step(sql: "COMMIT", parameters: []),
            Step(sql: "BEGIN IMMEDIATE", parameters: []),
            Step(sql: "DELETE FROM parent WHERE k = 'k1'", parameters: []),
            Step(sql: "WITH x(k) AS (VALUES ('w')) INSERT INTO parent (k, v) SELECT k, '0' FROM x", parameters: []),
            Step(sql: "COMMIT", parameters: []),
        ]
        return steps
    }()

    /// Runs the workload in Python with the library preloaded; what its counts file holds.
    static func python(_ steps: [Step], database: String, countsFile: String, preload: String) throws -> (status: Int32, output: String) {
        let script = """
            import json, sqlite3, sys
            connection = sqlite3.connect(sys.argv[1], isolation_level=None)
            for step in json.loads(sys.argv[2]):
                connection.execute(step["sql"], step["parameters"]).fetchall()
            connection.close()
            """
        let python = try CapturedProcess(
            ["python3", "-c", script, database, String(decoding: try JSONEncoder().encode(steps), as: UTF8.self)],
            environment: ["LD_PRELOAD": preload, CounterLibraryCounts.environmentVariable: countsFile])
        return (python.status, python.output)
    }

    /// The same workload on bench's connection, counted there (less what opening it ran).
    static func bench(_ steps: [Step], database: String) throws -> (store: StoreConnection, counts: StatementCounts) {
        let store = try StoreConnection(path: database, tracing: .never)
        let opened = store.counter.counts
        for step in steps {
            switch step.sql {
            case "BEGIN IMMEDIATE": try store.begin()
            case "COMMIT": try store.commit()
            default:
                let statement = try store.prepare(step.sql)
                for (index, parameter) in step.parameters.enumerated() { statement.bind(parameter, at: Int32(index + 1)) }
                while try statement.step() {}
                statement.reset()
            }
        }
        return (store, store.counter.counts - opened)
    }

    @Test("counts what Python's sqlite3 runs exactly as bench's connection counts the same statements")
    func sameCountsAsBench() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("importbench-preload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let countsFile = directory.appendingPathComponent("counts").path
        let ran = try Self.python(
            Self.workload, database: directory.appendingPathComponent("python.sqlite").path, countsFile: countsFile,
            preload: try #require(Self.library))
        try #require(ran.status == 0, "\(ran.output)")
        let preloaded = try #require(try CounterLibraryCounts.read(countsFile), "python3 reported no counts")
        let (store, counted) = try Self.bench(Self.workload, database: directory.appendingPathComponent("bench.sqlite").path)
        #expect(preloaded.statements.fetches == counted.fetches)
        #expect(preloaded.statements.inserts == counted.inserts)
        #expect(preloaded.statements.updates == counted.updates)
        #expect(preloaded.statements.upserts == counted.upserts)
        #expect(preloaded.statements.deletes == counted.deletes)
        #expect(preloaded.statements.others == counted.others)
        #expect(preloaded.statements.transactions == counted.transactions)
        #expect(preloaded.statements.vmSteps == counted.vmSteps)
        #expect(preloaded.rowsWritten == store.totalChanges)
        #expect(preloaded.connectionsTraced == 1 && preloaded.connectionsClosed == 1)
        // No empty workload: every kind ran.
        #expect(counted.fetches == 20 && counted.upserts == 20 && counted.deletes == 1 && counted.transactions == 2)
    }

    @Test("a process that opens no connection through the shared libsqlite3 reports nothing: not observed, not zero")
    func nothingObserved() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("importbench-preload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let countsFile = directory.appendingPathComponent("counts").path
        let ran = try Self.python([], database: ":memory:", countsFile: countsFile, preload: try #require(Self.library))
        try #require(ran.status == 0, "\(ran.output)")
        // The empty workload still opened (and closed) a connection: reported, with nothing executed.
        #expect(try CounterLibraryCounts.read(countsFile)?.statements == StatementCounts())
        let untouched = directory.appendingPathComponent("never").path
        #expect(try CounterLibraryCounts.read(untouched) == nil)
    }

    @Test("is plain C: the Swift runtime is not loaded into the command's processes")
    func noSwiftRuntime() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "print(open('/proc/self/maps').read())"]
        process.environment = ProcessInfo.processInfo.environment.merging(["LD_PRELOAD": try #require(Self.library)]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let maps = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(maps.contains("libImportBenchSQLCounts"), "the library was not preloaded")
        #expect(!maps.contains("libswiftCore"))
    }

    @Test("lines of several processes add up; a line of another format is refused, located")
    func linesAddUp() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("importbench-preload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("counts").path
        try """
        importbench-sql-counts 1 pid=1 connections=1 closed=1 fetches=3 inserts=2 vm_steps=10 rows_written=2
        importbench-sql-counts 1 pid=2 connections=2 closed=1 fetches=4 transactions=1 vm_steps=5
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let counts = try #require(try CounterLibraryCounts.read(path))
        #expect(counts.statements.fetches == 7 && counts.statements.inserts == 2 && counts.statements.transactions == 1)
        #expect(counts.statements.vmSteps == 15 && counts.rowsWritten == 2 && counts.connectionsUnreported == 1)
        try "something else\n".write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: StoreError.self) { try CounterLibraryCounts.read(path) }
        #expect(error?.message.contains("line 1") == true)
    }
}
