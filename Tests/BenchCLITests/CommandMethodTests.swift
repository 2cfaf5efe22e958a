import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `bench run --command NAME=COMMAND`: a program of the user's, in any language, measured as a
/// strategy, counted through the preloaded library and verified; and run so that it cannot hurt.
@Suite("Commands as strategies", .serialized)
struct CommandMethodTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let examples = root.appendingPathComponent("Examples/Commands")

    /// Runs bench with a CSV in a fresh folder; the status, the output and the CSV's rows by strategy.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, rows: [String: [String: String]]) {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = directory.appendingPathComponent("results.csv").path
        let (status, output) = try IsolatedRunTests.bench(["run"] + arguments + ["--quiet", "--csv", csv])
        let rows = FileManager.default.fileExists(atPath: csv) ? try RunCommandEndToEndTests.csvRows(csv) : []
        return (status, output, Dictionary(rows.map { ($0["strategy"] ?? "", $0) }, uniquingKeysWith: { first, _ in first }))
    }

    /// The pids of processes whose command line is exactly `arguments`.
    static func processes(_ arguments: [String]) -> [Int32] {
        let wanted = Data(arguments.joined(separator: "\0").utf8) + Data([0])
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") == wanted
        }
    }

    @Test("Python importers on products: valid beside the built-ins, fetches counted exactly through the shared libsqlite3")
    func pythonImporters() throws {
        let naive = Self.examples.appendingPathComponent("products_naive.py").path
        let upsert = Self.examples.appendingPathComponent("products_upsert.py").path
        let (status, output, rows) = try Self.run([
            "--scenario", "products", "--scale", "0.05", "--strategy", "naive,upsert",
            "--command", "py-naive=python3 \(naive)", "--command", "py-upsert=python3 '\(upsert)' {payload} {db}",
        ])
        #expect(status == 0, "\(output)")
        let pyNaive = try #require(rows["py-naive"])
        let pyUpsert = try #require(rows["py-upsert"])
        for row in [pyNaive, pyUpsert] {
            #expect(row["valid"] == "true" && row["counted_at"] == "preloaded", "\(row)")
            #expect(row["digest"] == rows["naive"]?["digest"])
            #expect(row["records"] == rows["naive"]?["records"])
        }
        // Find-or-insert: one fetch per occurrence, as bench's naive; the upsert fetches nothing.
        #expect(pyNaive["fetch_count"] == pyNaive["records"] && pyNaive["fetch_count"] == rows["naive"]?["fetch_count"])
        #expect(pyUpsert["fetch_count"] == "0" && pyUpsert["upsert_count"] == pyUpsert["records"])
    }

    @Test("Python importers on chat: valid, the find-or-insert fetching exactly what bench's naive fetches")
    func pythonChat() throws {
        let naive = Self.examples.appendingPathComponent("chat_naive.py").path
        let upsert = Self.examples.appendingPathComponent("chat_upsert.py").path
        let (status, output, rows) = try Self.run([
            "--scenario", "chat", "--scale", "0.05", "--batch-size", "500", "--strategy", "naive",
            "--command", "py-naive=python3 '\(naive)'", "--command", "py-upsert=python3 '\(upsert)'",
        ])
        #expect(status == 0, "\(output)")
        for name in ["py-naive", "py-upsert"] {
            #expect(rows[name]?["valid"] == "true" && rows[name]?["digest"] == rows["naive"]?["digest"], "\(name)")
        }
        // One fetch per occurrence, and one per reference given by key alone: bench's naive's count.
        #expect(rows["py-naive"]?["fetch_count"] == rows["naive"]?["fetch_count"])
        #expect(rows["py-upsert"]?["fetch_count"] == "0")
    }

    @Test("SQLite's own JSON functions through the sqlite3 shell, on a refresh: valid, one statement counted")
    func sqliteShell() throws {
        let script = Self.examples.appendingPathComponent("products_json_each.sh").path
        let (status, output, rows) = try Self.run([
            "--scenario", "products", "--scale", "0.05", "--strategy", "upsert", "--preload", "overlap=0.9,changed=0.2",
            "--command", "sql-json-each=sh '\(script)'",
        ])
        #expect(status == 0, "\(output)")
        let row = try #require(rows["sql-json-each"])
        #expect(row["valid"] == "true" && row["digest"] == rows["upsert"]?["digest"])
        // One INSERT ... SELECT upserts every product (after the connection's pragmas); its rows
        // written are the payload's products.
        #expect(row["upsert_count"] == "1" && row["insert_count"] == "0" && row["fetch_count"] == "0")
        #expect(row["rows_written"] == row["records"])
    }

    /// P-1 and P-2 whole or nearly, then partly: members absent, one set to null; P-3 stored by the
    /// preload, then partly. An importer that writes an absent member as NULL blanks name, brand and
    /// the rest.
    static let partialProducts = """
        [
          {"serialCode": "P-1", "name": "Kettle", "brand": "Acme", "category": "kitchen", "price": 24.5, "currency": "EUR",
           "stock": 7, "active": true, "updatedAt": "2026-01-01T00:00:00Z", "description": "Steel, 1.7 l"},
          {"serialCode": "P-2", "name": "Toaster", "price": 30},
          {"serialCode": "P-1", "price": 19.9, "description": null},
          {"serialCode": "P-3", "stock": 0, "brand": null},
          {"serialCode": "P-2", "brand": "Brava"}
        ]
        """
    static let partialProductsPreload = """
        [
          {"serialCode": "P-3", "name": "Grinder", "brand": "Mola", "category": "kitchen", "price": 49, "currency": "EUR",
           "stock": 2, "active": true, "updatedAt": "2025-12-01T00:00:00Z", "description": "Burr grinder"}
        ]
        """
    /// Users embedded whole (a channel's creator, a message's author), then partly in later messages,
    /// a member and a read (`image` and `role` null, the rest absent); m2 whole, then as m3's quoted
    /// copy (text only: its author and quote absent), then with `quoted_message_id` null alone.
    static let partialChat = """
        {"channels": [
          {"channel": {"cid": "messaging:c1", "id": "c1", "type": "messaging", "name": "Launch",
             "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-02T00:00:00Z",
             "created_by": {"id": "u1", "name": "Ada", "role": "admin", "image": "https://example.com/ada.png",
                            "created_at": "2025-01-01T00:00:00Z", "updated_at": "2025-06-01T00:00:00Z", "online": true}},
           "watcher_count": 3,
           "messages": [
             {"id": "m1", "text": "hello", "type": "regular", "created_at": "2026-01-01T01:00:00Z", "updated_at": "2026-01-01T01:00:00Z",
              "user": {"id": "u2", "name": "Bo", "role": "user", "image": "https://example.com/bo.png", "online": false}},
             {"id": "m2", "text": "re", "type": "reply", "created_at": "2026-01-01T02:00:00Z",
              "user": {"id": "u1", "name": "Ada"}, "quoted_message_id": "m1"},
             {"id": "m3", "text": "quoting", "user": {"id": "u2", "image": null},
              "quoted_message": {"id": "m2", "text": "re (edited)"}, "quoted_message_id": "m2"},
             {"id": "m4", "text": "nobody", "user": null, "quoted_message_id": null},
             {"id": "m2", "quoted_message_id": null}
           ],
           "members": [{"user": {"id": "u2", "online": true}, "role": "member"}],
           "read": [{"user": {"id": "u1", "role": null}, "last_read": "2026-01-02T00:00:00Z"}]},
          {"channel": {"cid": "messaging:c2", "name": "Side", "created_by": {"id": "u2", "name": "Bo B."}},
           "messages": [{"id": "m5", "text": "elsewhere", "user": {"id": "u1"}}]}
        ]}
        """

    @Test("Absent is not null: objects whole, then partly (absent members keep their values, a null sets NULL), at batch size 1: every example valid")
    func absentMembers() throws {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func file(_ name: String, _ text: String) throws -> String {
            let path = directory.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        func example(_ name: String) -> String { "'\(Self.examples.appendingPathComponent(name).path)'" }

        let products = try Self.run([
            "--scenario", "products", "--payload", try file("products.json", Self.partialProducts),
            "--preload", try file("preload.json", Self.partialProductsPreload), "--batch-size", "1", "--strategy", "upsert",
            "--command", "py-naive=python3 \(example("products_naive.py"))",
            "--command", "py-upsert=python3 \(example("products_upsert.py")) {payload} {db}",
            "--command", "sql-json-each=sh \(example("products_json_each.sh"))",
        ])
        #expect(products.status == 0, "\(products.output)")
        #expect(products.rows["upsert"]?["valid"] == "true", "\(products.output)")
        for name in ["py-naive", "py-upsert", "sql-json-each"] {
            let row = try #require(products.rows[name], "\(products.output)")
            #expect(row["valid"] == "true" && row["digest"] == products.rows["upsert"]?["digest"], "\(name): \(row)")
        }

        let chat = try Self.run([
            "--scenario", "chat", "--payload", try file("chat.json", Self.partialChat), "--batch-size", "1", "--strategy", "naive",
            "--command", "py-naive=python3 \(example("chat_naive.py"))", "--command", "py-upsert=python3 \(example("chat_upsert.py"))",
        ])
        #expect(chat.status == 0, "\(chat.output)")
        #expect(chat.rows["naive"]?["valid"] == "true", "\(chat.output)")
        for name in ["py-naive", "py-upsert"] {
            let row = try #require(chat.rows[name], "\(chat.output)")
            #expect(row["valid"] == "true" && row["digest"] == chat.rows["naive"]?["digest"], "\(name): \(row)")
        }
        // The find-or-insert still fetches what bench's naive fetches: no lookup for an absent quote.
        #expect(chat.rows["py-naive"]?["fetch_count"] == chat.rows["naive"]?["fetch_count"])
    }

    @Test("compare gates a command like a strategy: one fetch more is a regression, exit 2")
    func gatedInCI() throws {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let importer = "python3 '\(Self.examples.appendingPathComponent("products_naive.py").path)'"
        let oneMore = #" && python3 -c "import os, sqlite3; sqlite3.connect(os.environ['BENCH_DB']).execute('SELECT 1').fetchall()""#
        var files: [String] = []
        for (name, command) in [("baseline", importer), ("current", importer + oneMore)] {
            let csv = directory.appendingPathComponent("\(name).csv").path
            let ran = try IsolatedRunTests.bench([
                "run", "--scenario", "products", "--scale", "0.02", "--strategy", "upsert", "--command", "py-naive=\(command)", "--quiet", "--csv",
                csv,
            ])
            try #require(ran.status == 0, "\(ran.output)")
            files.append(csv)
        }
        let judged = try IsolatedRunTests.bench(["compare", files[0], files[1], "--counts-only"])
        #expect(judged.status == 2, "\(judged.output)")
        #expect(judged.output.contains("py-naive") && judged.output.contains("fetch_count"), "\(judged.output)")
    }

    @Test("a command that writes other data is invalid: exit 3")
    func wrongData() throws {
        let (status, output, rows) = try Self.run([
            "--scenario", "products", "--scale", "0.02", "--strategy", "upsert",
            "--command",
            #"stray=python3 -c "import os, sqlite3; c = sqlite3.connect(os.environ['BENCH_DB']); c.execute(\"INSERT INTO product (serialCode) VALUES ('not-in-the-payload')\"); c.commit()""#,
        ])
        #expect(status == 3, "\(output)")
        #expect(rows["stray"]?["valid"] == "false")
        #expect(rows["upsert"]?["valid"] == "true")
    }

    @Test("a command that exits 1 fails the run with its status and the end of its standard error")
    func failingCommand() throws {
        let (status, output, _) = try Self.run([
            "--scenario", "products", "--scale", "0.02", "--strategy", "upsert",
            "--command", "broken=echo 'cannot parse the payload: unexpected token' >&2; exit 1",
        ])
        #expect(status != 0)
        #expect(output.contains("broken exited with status 1"), "\(output)")
        #expect(output.contains("cannot parse the payload: unexpected token"), "\(output)")
    }

    @Test("--command-timeout stops a command that hangs, and its whole group with it")
    func hangingCommand() throws {
        let sleeper = ["sleep", "31.25"]
        let started = ContinuousClock.now
        let (status, output, _) = try Self.run([
            "--scenario", "products", "--scale", "0.02", "--strategy", "upsert",
            "--command", "hang=\(sleeper.joined(separator: " ")) & \(sleeper.joined(separator: " "))", "--command-timeout", "1",
        ])
        #expect(status != 0)
        #expect(output.contains("hang ran longer than --command-timeout 1 s"), "\(output)")
        #expect(ContinuousClock.now - started < .seconds(20))
        #expect(Self.processes(sleeper).isEmpty, "a process of the command's group outlived the run")
    }

    @Test("SIGTERM to bench, or its death by SIGKILL, ends the command's whole group", arguments: [SIGTERM, SIGKILL])
    func benchStopped(signal: Int32) throws {
        let sleeper = ["sleep", signal == SIGTERM ? "47.5" : "53.75"]
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = Process()
        process.executableURL = IsolatedRunTests.binary
        process.arguments = [
            "run", "--scenario", "products", "--scale", "0.02", "--strategy", "upsert", "--quiet",
            "--command", "hang=\(sleeper.joined(separator: " ")) & \(sleeper.joined(separator: " "))",
            "--csv", directory.appendingPathComponent("r.csv").path,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = ContinuousClock.now + .seconds(60)
        while Self.processes(sleeper).count < 2, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.05) }
        try #require(Self.processes(sleeper).count == 2, "the command never started")
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        Thread.sleep(forTimeInterval: 2)
        #expect(Self.processes(sleeper).isEmpty, "a process of the command's group outlived bench")
        if signal == SIGTERM { #expect(process.terminationStatus == 128 + SIGTERM) }
    }

    @Test("a command whose SQLite is linked in statically: its counts are not observed, never zeros")
    func staticSQLite() throws {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("static.c")
        try """
        #include <sqlite3.h>
        #include <stdlib.h>
        int main(void) {
            sqlite3 *db;
            if (sqlite3_open(getenv("BENCH_DB"), &db) != SQLITE_OK) return 1;
            int code = sqlite3_exec(db, "INSERT INTO product (serialCode, name) VALUES ('s1', 'one')", 0, 0, 0);
            sqlite3_close(db);
            return code == SQLITE_OK ? 0 : 1;
        }
        """.write(to: source, atomically: true, encoding: .utf8)
        let binary = directory.appendingPathComponent("static-importer").path
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        compiler.arguments = ["cc", "-o", binary, source.path, "-Wl,-Bstatic", "-lsqlite3", "-Wl,-Bdynamic", "-lm", "-lpthread", "-ldl"]
        try compiler.run()
        compiler.waitUntilExit()
        try #require(compiler.terminationStatus == 0, "cc could not link libsqlite3.a")
        let (status, output, rows) = try Self.run([
            "--scenario", "products", "--scale", "0.02", "--strategy", "upsert", "--command", "static=\(binary)",
        ])
        #expect(status == 3, "\(output)")  // it wrote one product of 200: invalid
        let row = try #require(rows["static"])
        #expect(row["counted_at"] == "not_observed")
        #expect(row["fetch_count"] == "" && row["statement_count"] == "" && row["vm_steps"] == "")
        #expect(rows["upsert"]?["fetch_count"] == "0")
    }
}
