import Foundation
import ImportBenchCore
import ImportBenchStore
import ImportBenchStrategies
import Testing

@testable import ImportBenchCLI

@Suite("bench run end to end")
struct RunCommandEndToEndTests {
    /// The first half of a small chat payload, as cut.json in `directory`: JSON that ends mid-value.
    static func halfPayload(in directory: URL) throws -> String {
        let full = directory.appendingPathComponent("full.json").path
        try ChatScenario().generate(scale: 0.02, seed: 1, to: full)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: full))
        let cut = directory.appendingPathComponent("cut.json").path
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        return cut
    }

    /// A CSV written by bench run, as one dictionary per row keyed by column name. A quoted field
    /// (a preload spec holds a comma) is one field, its quotes removed.
    static func csvRows(_ path: String) throws -> [[String: String]] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\r\n").map(fields)
        let header = try #require(lines.first)
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    /// The fields of one CSV line; bench's lines hold no line breaks inside quotes.
    static func fields(_ line: Substring) -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var characters = line[...]
        while let character = characters.popFirst() {
            if quoted, character == "\"" {
                if characters.first == "\"" {
                    field.append("\"")
                    characters.removeFirst()
                } else {
                    quoted = false
                }
            } else if quoted {
                field.append(character)
            } else if character == "\"" {
                quoted = true
            } else if character == "," {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
        }
        fields.append(field)
        return fields
    }

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("importbench-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("a payload of another shape than its scenario's stops before any strategy runs, saying which scenario and what to give")
    func wrongShape() throws {
        let folder = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let payload = folder.appendingPathComponent("twitter.json").path
        try #"{"statuses": [{"id": 1}], "search_metadata": {}}"#.write(toFile: payload, atomically: true, encoding: .utf8)
        let ran = try IsolatedRunTests.bench(["run", "--payload", payload, "--quiet"])
        #expect(ran.status == 1, "\(ran.output)")
        #expect(ran.output.contains("does not have the shape of the chat scenario (the default"), "\(ran.output)")
        #expect(ran.output.contains("--mapping FILE") && ran.output.contains("nothing was imported"))
        #expect(!ran.output.contains("stopped at batch"), "one message, not one per strategy: \(ran.output)")
        // A payload of the right shape with a bad element keeps the per-strategy report.
        try #"{"channels": [{"channel": 5}]}"#.write(toFile: payload, atomically: true, encoding: .utf8)
        let element = try IsolatedRunTests.bench(["run", "--payload", payload, "--strategy", "naive", "--quiet"])
        #expect(element.status == 1 && element.output.contains("stopped at batch 0"), "\(element.output)")
    }

    @Test("all strategies on a small chat payload: one CSV row each, all valid, one digest")
    func allStrategies() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csvPath = directory.appendingPathComponent("r.csv").path

        let command = try #require(
            try BenchCommand.parseAndCheck(["run", "--scale", "0.02", "--csv", csvPath, "--quiet", "--no-isolate"]) as? RunCommand)
        try command.run()

        let lines = try String(contentsOfFile: csvPath, encoding: .utf8).split(separator: "\r\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        let header = try #require(lines.first)
        let rows = lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
        #expect(rows.map { $0["strategy"] } == StrategyCatalog.builtIn.names)
        #expect(rows.allSatisfy { $0["valid"] == "true" })
        #expect(Set(rows.compactMap { $0["digest"] }).count == 1)
        #expect(rows.allSatisfy { $0["scale"] == "0.02x" && $0["batch_size"] == "1000" })
    }

    @Test("a missing payload file fails with a message naming it")
    func missingPayload() throws {
        let command = try #require(
            try BenchCommand.parseAndCheck(["run", "--payload", "/nonexistent/chat.json", "--quiet", "--no-isolate"]) as? RunCommand)
        let error = #expect(throws: CommandFailure.self) { try command.run() }
        #expect(error?.message.contains("/nonexistent/chat.json") == true)
        #expect(error?.exitCode == 1)
    }

    @Test("a truncated payload fails with its byte offset and leaves no result")
    func truncatedPayload() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cut = try Self.halfPayload(in: directory)

        let command = try #require(
            try BenchCommand.parseAndCheck([
                "run", "--payload", cut, "--quiet", "--no-isolate", "--csv", directory.appendingPathComponent("r.csv").path,
            ]) as? RunCommand)
        let error = #expect(throws: CommandFailure.self) { try command.run() }
        #expect(error?.message.contains(cut) == true)
        #expect(error?.message.contains("byte") == true)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("r.csv").path))
    }
}

@Suite("Isolated runs through the built binary")
struct IsolatedRunTests {
    /// The bench that `swift build --build-tests` leaves beside the tests, whatever the scratch
    /// path and configuration: SCRATCH/CONFIGURATION/bench, the link the tests that find the
    /// checkout from it expect (the tests themselves lie in SCRATCH/TRIPLE/CONFIGURATION). Every
    /// test that runs it fails, never skips, when it is missing (`binaryIsBuilt` says why).
    static let binary: URL = {
        if let tests = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let configuration = URL(fileURLWithPath: tests).deletingLastPathComponent()
            let scratch = configuration.deletingLastPathComponent().deletingLastPathComponent()
            return scratch.appendingPathComponent(configuration.lastPathComponent).appendingPathComponent("bench")
        }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug/bench")
    }()

    static var available: Bool { FileManager.default.isExecutableFile(atPath: binary.path) }

    @Test("the bench built beside the tests is there: the tests that run it fail without it, never skip")
    func binaryIsBuilt() {
        #expect(Self.available, "no bench at \(Self.binary.path): build it with the tests (swift build --build-tests, or scripts/test)")
    }

    static func bench(_ arguments: [String], input: Data? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        let output = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(input) }
        try stdin.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test(
        "each measured run in its own process: valid, with the in-process counts")
    func isolatedMatchesInProcess() throws {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let isolated = directory.appendingPathComponent("isolated.csv").path
        let inProcess = directory.appendingPathComponent("in-process.csv").path
        let common = ["run", "--scenario", "products", "--scale", "0.05", "--strategy", "naive,upsert", "--quiet"]
        #expect(try Self.bench(common + ["--csv", isolated]).status == 0)
        #expect(try Self.bench(common + ["--no-isolate", "--csv", inProcess]).status == 0)
        func rows(_ path: String) throws -> [String] {
            let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\r\n")
            let header = lines.first?.split(separator: ",").map(String.init) ?? []
            let wanted = ["strategy", "fetch_count", "insert_count", "digest", "valid"].compactMap { header.firstIndex(of: $0) }
            return lines.dropFirst().map { line in
                let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                return wanted.map { String(fields[$0]) }.joined(separator: " ")
            }
        }
        #expect(try rows(isolated) == rows(inProcess))
        #expect(try rows(isolated).allSatisfy { $0.hasSuffix("true") })
    }

    @Test(
        "every built-in counts the same at the SQLite level as on bench's connection, on a refresh too",
        arguments: [["--scenario", "chat"], ["--scenario", "products", "--preload", "overlap=0.9,changed=0.2"]])
    func countsAtBothLevels(scenario: [String]) throws {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let byConnection = directory.appendingPathComponent("connection.csv").path
        let bySQLite = directory.appendingPathComponent("sqlite.csv").path
        let common = ["run"] + scenario + ["--scale", "0.05", "--batch-size", "100", "--quiet"]
        #expect(try Self.bench(common + ["--count-at", "connection", "--csv", byConnection]).status == 0)
        #expect(try Self.bench(common + ["--count-at", "sqlite", "--csv", bySQLite]).status == 0)
        let counted = [
            "strategy", "fetch_count", "insert_count", "update_count", "upsert_count", "delete_count", "statement_count",
            "transaction_count", "rows_written", "vm_steps", "digest", "valid",
        ]
        let connectionRows = try RunCommandEndToEndTests.csvRows(byConnection)
        let sqliteRows = try RunCommandEndToEndTests.csvRows(bySQLite)
        #expect(connectionRows.count == StrategyCatalog.builtIn.names.count)
        #expect(connectionRows.map { row in counted.map { row[$0] ?? "?" } } == sqliteRows.map { row in counted.map { row[$0] ?? "?" } })
        #expect(connectionRows.allSatisfy { $0["counted_at"] == "connection" && $0["valid"] == "true" })
        #expect(sqliteRows.allSatisfy { $0["counted_at"] == "sqlite" })
        // On a refresh the store holds rows, so bulk keeps its indexes and says so; on a first import no one falls back.
        let fallbacks = connectionRows.compactMap { row in row["fallback"].flatMap { $0.isEmpty ? nil : "\(row["strategy"] ?? "?"): \($0)" } }
        #expect(fallbacks == (scenario.contains("--preload") ? ["bulk: indexes kept"] : []))
    }

    @Test(
        "the C reference's replay is measured in a child of its own, and its store checked against the ceiling's digest")
    func cReferenceInChild() throws {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = ChatScenario()
        let payload = directory.appendingPathComponent("chat.json").path
        try scenario.generate(scale: 0.02, seed: 1, to: payload)
        let store = directory.appendingPathComponent("ceiling.sqlite").path
        let ceiling = try ImportRun(
            scenario: scenario, payloadPath: payload, method: CeilingStrategy.self, batchSize: .all, databasePath: store
        ).execute()
        let scratch = directory.appendingPathComponent("reference.sqlite").path
        let child = ChildProcessExecutor(executable: Self.binary)
        var jobs: [CReference.Job] = []
        let measurement = try CReference.replay(
            store: store, digest: ceiling.digest, schema: scenario.schema, settings: .default, scratchPath: scratch
        ) { job in
            jobs.append(job)
            return try child.replay(job)
        }
        #expect(jobs.count == 1)
        let rows = try scenario.schema.tableNames.reduce(Int64(0)) { total, table in
            try total + (StoreConnection(path: store).prepare("SELECT count(*) FROM \"\(table)\"").scalarInt64() ?? 0)
        }
        #expect(rows > 0 && measurement.rows == rows)
        #expect(measurement.seconds > 0)
        #expect(!FileManager.default.fileExists(atPath: scratch))

        // A job the child cannot replay fails with SQLite's message; one it cannot read, as such.
        var missing = try #require(jobs.first)
        missing.sourcePath = directory.appendingPathComponent("absent.sqlite").path
        #expect { try child.replay(missing) } throws: { String(describing: $0).contains("absent.sqlite") }
        let garbled = try Self.bench(["measure-one", "--c-reference"], input: Data("{}".utf8))
        #expect(garbled.status == 1)
        #expect(garbled.output.contains("not a C reference job this bench reads"))
    }

    @Test(
        "the child refuses a spec it cannot rebuild, with a message")
    func badSpec() throws {
        for (scenario, strategy) in [("nope", "naive"), ("chat", "nope")] {
            let run = String(decoding: try JSONEncoder().encode(RunSpec(scenario: .builtIn(scenario), payload: .file("/x"))), as: UTF8.self)
            let spec = #"{"run":"# + run + #","method":""# + strategy + #"","methodSettings":{},"databasePath":"/tmp/x.sqlite"}"#
            let result = try Self.bench(["measure-one"], input: Data(spec.utf8))
            #expect(result.status == 1)
            #expect(result.output.contains("cannot rebuild run"), "\(result.output)")
        }
        // A spec of another shape (another build's) is refused as such.
        let old = try Self.bench(["measure-one"], input: Data(#"{"scenario":"chat","batchSize":"10"}"#.utf8))
        #expect(old.status == 1)
        #expect(old.output.contains("not a run spec this bench reads"))
    }
}

@Suite("bench run on a payload with one bad record")
struct SkipPolicyEndToEndTests {
    @Test("--on-error skip leaves the bad channel out of every run, all valid; fail stops with its record path")
    func skipOrFail() throws {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let full = directory.appendingPathComponent("full.json").path
        try ChatScenario().generate(scale: 0.06, seed: 1, to: full)
        var text = try String(contentsOfFile: full, encoding: .utf8)
        // The second channel's cid becomes a number: a record that can be delimited but not read.
        let cids = text.ranges(of: "\"cid\":")
        let valueStart = try #require(cids.dropFirst().first).upperBound
        let valueEnd = try #require(text[text.index(after: valueStart)...].firstIndex(of: "\"")).utf16Offset(in: text) + 1
        text.replaceSubrange(valueStart..<String.Index(utf16Offset: valueEnd, in: text), with: "7")
        let bad = directory.appendingPathComponent("bad.json").path
        try text.write(toFile: bad, atomically: true, encoding: .utf8)

        let csv = directory.appendingPathComponent("r.csv").path
        let skip = try #require(
            try BenchCommand.parseAndCheck(
                ["run", "--payload", bad, "--on-error", "skip", "--strategy", "upsert", "--quiet", "--no-isolate", "--csv", csv]) as? RunCommand)
        try skip.run()
        let rows = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\r\n").dropFirst()
        #expect(rows.count == 2)
        #expect(rows.allSatisfy { $0.contains(",true,") })

        let fail = try #require(
            try BenchCommand.parseAndCheck(
                ["run", "--payload", bad, "--strategy", "upsert", "--quiet", "--no-isolate", "--csv", csv]) as? RunCommand)
        let error = #expect(throws: CommandFailure.self) { try fail.run() }
        #expect(error?.message.contains("channels[1].channel.cid") == true)
        #expect(error?.message.contains("Checked: the store holds exactly its committed batches") == true)
        #expect(error?.exitCode == 1)
    }
}

@Suite("bench run store settings")
struct StoreSettingsEndToEndTests {
    @Test(
        "--journal and --synchronous reach the store, the header and the CSV; the data is the same",
        arguments: [
            ("delete", "full"), ("wal", "off"),
        ])
    func journalAndSynchronous(journal: String, synchronous: String) throws {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = directory.appendingPathComponent("r.csv").path
        let db = directory.appendingPathComponent("s.sqlite").path
        let command = try #require(
            try BenchCommand.parseAndCheck([
                "run", "--scenario", "products", "--scale", "0.02", "--strategy", "upsert", "--journal", journal,
                "--synchronous", synchronous, "--db", db, "--quiet", "--no-isolate", "--csv", csv,
            ]) as? RunCommand)
        try command.run()
        let rows = try RunCommandEndToEndTests.csvRows(csv)
        #expect(rows.count == 2)
        #expect(rows.allSatisfy { $0["journal_mode"] == journal && $0["synchronous"] == synchronous && $0["valid"] == "true" })
        // The kept store says which journal wrote it.
        let store = try StoreConnection(path: directory.appendingPathComponent("s-upsert.sqlite").path)
        let statement = try store.prepare("PRAGMA journal_mode")
        #expect(try statement.step())
        #expect(statement.value(at: 0) == .text(journal))
    }
}

@Suite("bench run reader probe")
struct ReaderProbeEndToEndTests {
    @Test(
        "--probe-reads fills the reader's columns of every row, names the probe in the header and adds its columns to the table")
    func probeColumns() throws {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = directory.appendingPathComponent("r.csv").path
        let result = try IsolatedRunTests.bench([
            "run", "--scenario", "quakes", "--scale", "0.05", "--strategy", "naive,upsert", "--journal", "delete",
            "--probe-reads", "200", "--batch-size", "all", "--quiet", "--csv", csv,
        ])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("reader probe: a second connection runs the quakes screen query 200 times a second"))
        #expect(result.output.contains("reader p99 ms") && result.output.contains("longest txn ms"))
        let rows = try RunCommandEndToEndTests.csvRows(csv)
        #expect(rows.map { $0["strategy"] } == ["naive", "upsert", "ceiling"])
        for row in rows {
            #expect(row["probe_reads_hz"] == "200")
            #expect(Int(row["reader_queries"] ?? "") != nil)
            for column in ["reader_p50_s", "reader_p99_s", "reader_max_s", "reader_longest_blocked_s"] {
                #expect(Double(row[column] ?? "") != nil, "\(column) is not a number")
            }
            #expect(try #require(Double(row["longest_write_txn_s"] ?? "")) > 0)
        }
    }
}
