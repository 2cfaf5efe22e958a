import Foundation
import ImportBenchCore
import ImportBenchStore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real thing: the built `bench`, killed with SIGKILL at random moments or interrupted with
/// SIGINT, then run again. Needs the binary `scripts/test` builds; fails, not skips, without it.
@Suite("Killed and interrupted imports through the built binary", .serialized)
struct KillAndResumeTests {
    static let binary = IsolatedRunTests.binary

    struct Fixture {
        let directory: URL
        let payload: String
        let preload: String
        let expected: ContentDigest
        let expectedAlone: ContentDigest

        init(scale: Double = 0.03) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("importbench-kill-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            payload = directory.appendingPathComponent("chat.json").path
            preload = directory.appendingPathComponent("preload.json").path
            let scenario = ChatScenario()
            try scenario.generate(scale: scale, seed: 21, to: payload)
            try scenario.generatePreload(scale: scale, seed: 21, overlap: 1, changed: 0.5, to: preload)
            let scratch = directory.appendingPathComponent("expected.sqlite").path
            expected = try ExpectedContent.build(
                schema: scenario.schema, preload: scenario.openReader(path: preload), reader: scenario.openReader(path: payload),
                scratchPath: scratch
            ).digest
            expectedAlone = try ExpectedContent.build(
                schema: scenario.schema, reader: scenario.openReader(path: payload), scratchPath: scratch
            ).digest
        }
    }

    /// Starts `bench measure-one` on the spec, its standard error to `errors` (for a failure's
    /// message); the caller waits or kills.
    private func startChild(_ spec: ImportRunSpec, errors: URL) throws -> Process {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = ["measure-one"]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        input.fileHandleForWriting.write(try JSONEncoder().encode(spec))
        try input.fileHandleForWriting.close()
        return process
    }

    @Test("SIGKILL at 50+ random moments across strategies, then resume: every final digest equals the uninterrupted one")
    func killAtRandomPoints() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build bench first: swift build")
        let fixture = try Fixture()
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        var random = SeededRandom(seed: 2026)
        var kills: [String: Int] = [:]
        for strategy in StrategyCatalog.builtIn.names {
            let isReference = strategy == StrategyCatalog.builtIn.limit.name
            let database = fixture.directory.appendingPathComponent("\(strategy).sqlite").path
            let run = ImportRun(
                scenario: ChatScenario(), payloadPath: fixture.payload, method: try #require(StrategyCatalog.builtIn.strategy(named: strategy)),
                batchSize: .occurrences(60), databasePath: database, preloadPath: isReference ? nil : fixture.preload, checkpoint: true)
            let spec = ImportRunSpec(run)
            let target = isReference ? fixture.expectedAlone : fixture.expected

            // How long an uninterrupted child takes here, so kill moments spread over the whole import.
            let start = Date()
            let errors = fixture.directory.appendingPathComponent("\(strategy).stderr")
            let timing = try startChild(spec, errors: errors)
            timing.waitUntilExit()
            #expect(timing.terminationStatus == 0)
            let duration = Date().timeIntervalSince(start)

            var cycles = 0
            while kills[strategy, default: 0] < 9 && cycles < 25 {
                cycles += 1
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
                var attempts = 0
                while true {
                    attempts += 1
                    let child = try startChild(spec, errors: errors)
                    let delay = duration * Double(random.nextInt(below: 1000)) / 1000 * 1.1
                    // The last attempts run to the end, so a cycle always finishes.
                    if attempts < 8 {
                        usleep(useconds_t(delay * 1_000_000))
                        kill(child.processIdentifier, SIGKILL)
                    }
                    child.waitUntilExit()
                    if child.terminationReason == .uncaughtSignal {
                        kills[strategy, default: 0] += 1
                        continue
                    }
                    #expect(
                        child.terminationStatus == 0,
                        "\(strategy): the resumed child failed: \((try? String(contentsOf: errors, encoding: .utf8)) ?? "")")
                    break
                }
                let store = try StoreConnection(path: database)
                let digest = try ChatScenario().schema.digest(of: store)
                #expect(digest == target, "\(strategy) after \(attempts - 1) kills: \(digest.differences(from: target))")
                // Resumed, never restarted over a committed batch: one import in the ledger, completed.
                #expect(try store.prepare("SELECT count(*) FROM importbench_import WHERE completed = 1").scalarInt64() == 1)
                #expect(try store.prepare("SELECT count(*) FROM importbench_import").scalarInt64() == 1)
            }
        }
        let total = kills.values.reduce(0, +)
        #expect(total >= 50, "only \(total) kills landed during an import: \(kills)")
        #expect(kills.count == StrategyCatalog.builtIn.names.count)
    }

    @Test(
        "SIGINT, SIGTERM (a CI timeout) and SIGHUP each roll back the current batch, report what is committed, exit 128 + the signal and leave no process, temporary file or lock; the same command resumes",
        arguments: [SIGINT, SIGTERM, SIGHUP])
    func interruptThenResume(signal: Int32) throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build bench first: swift build")
        // Large enough that the import is still running when the signal comes.
        let fixture = try Fixture(scale: 0.2)
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let database = fixture.directory.appendingPathComponent("store.sqlite").path
        let kept = fixture.directory.appendingPathComponent("store-naive.sqlite").path
        let arguments = [
            "run", "--scenario", "chat", "--payload", fixture.payload, "--preload", fixture.preload, "--strategy", "naive",
            "--batch-size", "20", "--db", database, "--checkpoint", "--quiet",
            "--csv", fixture.directory.appendingPathComponent("r.csv").path,
        ]
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Wait until the isolated child has created the store, then give it a few batches.
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: kept) && Date() < deadline && process.isRunning { usleep(2_000) }
        usleep(100_000)
        kill(process.processIdentifier, signal)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        #expect(process.terminationStatus == 128 + signal, "\(message)")
        #expect(Self.children(of: process.processIdentifier).isEmpty, "a measuring child outlived its parent")
        #expect(!FileManager.default.fileExists(atPath: kept + ".bench-lock"))
        #expect(message.contains("interrupted"))
        #expect(message.contains("rolled back"))
        #expect(message.contains("run the same command again to resume"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())
            .filter { $0.hasPrefix("importbench-\(process.processIdentifier)-") }
        #expect(leftovers.isEmpty, "temporary work directory left behind: \(leftovers)")
        for suffix in ["-wal", "-shm", "-journal"] {
            #expect(!FileManager.default.fileExists(atPath: kept + suffix), "\(suffix) left beside the store")
        }
        let interruptedDigest = try ChatScenario().schema.digest(of: StoreConnection(path: kept))
        #expect(interruptedDigest != fixture.expected)

        let again = Process()
        again.executableURL = Self.binary
        again.arguments = arguments.map { $0 == "--checkpoint" ? "--resume" : $0 }
        again.standardOutput = FileHandle.nullDevice
        again.standardError = FileHandle.nullDevice
        try again.run()
        again.waitUntilExit()
        #expect(again.terminationStatus == 0)
        #expect(try ChatScenario().schema.digest(of: StoreConnection(path: kept)) == fixture.expected)
    }

    @Test("Ctrl-C after two of five strategies leaves a CSV holding their rows, which compare, report and export accept")
    func interruptedRunKeepsFinishedRows() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build bench first: swift build")
        let fixture = try Fixture(scale: 0.2)
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let csv = fixture.directory.appendingPathComponent("r.csv").path
        func rows() -> Int {
            let text = (try? String(contentsOfFile: csv, encoding: .utf8)) ?? ""
            return max(0, text.split(separator: "\r\n").count - 1)
        }
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = [
            "run", "--scenario", "chat", "--payload", fixture.payload, "--strategy", "naive,cache,prewarm,upsert,idcache",
            "--batch-size", "20", "--quiet", "--csv", csv,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while rows() < 2 && Date() < deadline && process.isRunning { usleep(2_000) }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + SIGINT)
        let kept = rows()
        #expect(kept >= 2 && kept < 6, "\(kept) rows")

        func bench(_ arguments: [String]) throws -> Int32 {
            let tool = Process()
            tool.executableURL = Self.binary
            tool.arguments = arguments
            tool.standardOutput = FileHandle.nullDevice
            tool.standardError = FileHandle.nullDevice
            try tool.run()
            tool.waitUntilExit()
            return tool.terminationStatus
        }
        #expect(try bench(["compare", csv, csv]) == 0)
        let page = fixture.directory.appendingPathComponent("report.html").path
        #expect(try bench(["report", csv, "--out", page]) == 0, "a --payload run is drawn")
        #expect(FileManager.default.fileExists(atPath: page))
        #expect(try bench(["export", csv, "--format", "bencher", "--out", fixture.directory.appendingPathComponent("bmf.json").path]) == 0)
    }

    /// The PIDs of `bench measure-one` processes started by `parent` (they carry `--parent PID`).
    static func children(of parent: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return arguments.contains("measure-one") && arguments.contains(String(parent))
        }
    }
}
