import Foundation
import ImportBenchCore
import ImportBenchPayload
import ImportBenchStore
import Testing

/// `--decode-ahead`: each next batch decoded on a thread of its own while the strategy writes the
/// current one. It may change when things happen, never what: the same store, the same counts, and
/// a failure stopped where decoding in turn stops it, with no thread left behind.
@Suite(
    "Decoding ahead on a thread of its own", .serialized,
    .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/task"), "the threads are counted in /proc (Linux)"))
struct DecodeAheadTests {
    static let strategyNames = StrategyCatalog.builtIn.names

    /// Threads of this process named as the decoding thread names itself.
    private static func decodingThreads() -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { task in
            let name = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
            return name?.hasPrefix("bench-decode") == true
        }.count
    }

    private func run(
        _ strategy: String, payload: String, preload: String? = nil, batchSize: BatchSize, decodeAhead: Bool, in directory: TemporaryDirectory,
        scenario: any Scenario = ChatScenario()
    ) throws -> ImportRun {
        ImportRun(
            scenario: scenario, payloadPath: payload, method: try #require(StrategyCatalog.builtIn.strategy(named: strategy)),
            databasePath: directory.path("\(strategy)-\(decodeAhead).sqlite"), preloadPath: preload,
            options: RunOptions(batchSize: batchSize, decodeAhead: decodeAhead))
    }

    @Test(
        "a chat refresh decoded ahead writes the same store with the same counts; the decoding thread runs meanwhile and is gone after",
        arguments: strategyNames, [BatchSize.occurrences(37), .all])
    func sameImport(strategy: String, batchSize: BatchSize) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let scenario = ChatScenario()
        let payload = directory.path("chat.json")
        try scenario.generate(scale: 0.02, seed: 9, to: payload)
        // The ceiling always loads into an empty store.
        let preload: String? = strategy == StrategyCatalog.builtIn.limit.name ? nil : directory.path("preload.json")
        if let preload { try scenario.generatePreload(scale: 0.02, seed: 9, overlap: 1, changed: 0.5, to: preload) }
        let inTurn = try run(strategy, payload: payload, preload: preload, batchSize: batchSize, decodeAhead: false, in: directory)
            .execute()
        var threadsSeen = 0
        let ahead = try run(strategy, payload: payload, preload: preload, batchSize: batchSize, decodeAhead: true, in: directory)
            .execute { _ in threadsSeen = max(threadsSeen, Self.decodingThreads()) }
        // After the first of several batches is written, the thread decodes or waits to hand over
        // the next; one batch of all is written after the thread has ended.
        if case .occurrences = batchSize { #expect(threadsSeen == 1, "the batches came from a thread of their own") }
        #expect(Self.decodingThreads() == 0)
        #expect(ahead.digest == inTurn.digest, "\(ahead.digest.differences(from: inTurn.digest))")
        #expect(ahead.counts == inTurn.counts)
        #expect(ahead.rowsWritten == inTurn.rowsWritten)
        #expect(ahead.occurrences == inTurn.occurrences)
        #expect(inTurn.peakAllocatedBytes != nil)
        #expect(ahead.peakAllocatedBytes == nil, "no one thread's peak is the import's")
        // The decoding thread's allocations are added in (left out, the records would be missing):
        // what one thread allocated alone, plus the second thread's start (about 14 KB in bench's
        // child process; up to 2 MB inside this test process).
        let extra = Double(ahead.allocatedBytes) - Double(inTurn.allocatedBytes)
        #expect(
            extra > -0.02 * Double(inTurn.allocatedBytes) && extra < 0.02 * Double(inTurn.allocatedBytes) + 3_000_000,
            "allocated \(ahead.allocatedBytes) decoding ahead, \(inTurn.allocatedBytes) in turn")
    }

    @Test(
        "a payload cut short stops decoded ahead exactly where it stops decoded in turn, at the same byte, with the same batches committed",
        arguments: strategyNames)
    func truncatedPayload(strategy: String) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let scenario = QuakesScenario()
        let (cutPath, _) = try FixtureScenario.cutQuakes(at: 0.6, in: directory)
        var stops: [ImportStop] = []
        var threadsSeen = 0
        for decodeAhead in [false, true] {
            let importRun = try run(
                strategy, payload: cutPath, batchSize: .occurrences(40), decodeAhead: decodeAhead, in: directory, scenario: scenario)
            stops.append(try expectStop { _ = try importRun.execute { _ in threadsSeen = max(threadsSeen, Self.decodingThreads()) } })
        }
        #expect(threadsSeen == 1, "the second run's batches came from a thread of their own")
        #expect(Self.decodingThreads() == 0)
        let (inTurn, ahead) = (stops[0], stops[1])
        #expect(ahead.stage == .reading && inTurn.stage == .reading)
        #expect(ahead.batchIndex == inTurn.batchIndex)
        #expect(ahead.committedBatches == inTurn.committedBatches)
        #expect(ahead.committedOccurrences == inTurn.committedOccurrences)
        guard case .payload(let aheadError) = ahead.cause, case .payload(let inTurnError) = inTurn.cause else {
            Issue.record("expected the payload's error both ways, got \(ahead.cause) and \(inTurn.cause)")
            return
        }
        #expect(aheadError.byteOffset == inTurnError.byteOffset)
    }

    @Test("interrupted after a few batches, or stopped by a dangling reference, the writer leaves no decoding thread behind")
    func writerStops() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let scenario = ChatScenario()
        let payload = directory.path("chat.json")
        try scenario.generate(scale: 0.02, seed: 9, to: payload)
        var interrupted = try run("prewarm", payload: payload, batchSize: .occurrences(50), decodeAhead: true, in: directory)
        var batches = 0
        interrupted.stopRequested = { batches >= 3 }
        let stop = try expectStop { _ = try interrupted.execute { _ in batches += 1 } }
        #expect(stop.stage == .interrupted)
        #expect(stop.committedBatches == 3)
        #expect(Self.decodingThreads() == 0)

        let forum = directory.path("forum")
        try Data().write(to: URL(fileURLWithPath: forum))
        var failed: [ImportStop] = []
        for decodeAhead in [false, true] {
            let dangling = try run(
                "upsert", payload: forum, batchSize: .occurrences(2), decodeAhead: decodeAhead, in: directory,
                scenario: PathSwitchingScenario(units: [forum: FixtureScenario.forumUnitsWithOrphan]))
            failed.append(try expectStop { _ = try dangling.execute() })
        }
        #expect(failed.allSatisfy { $0.stage == .writing })
        #expect(failed[1].batchIndex == failed[0].batchIndex && failed[1].committedBatches == failed[0].committedBatches)
        #expect(Self.decodingThreads() == 0)
    }

    @Test(
        "missing references resolved by policy, and records skipped half-way, leave the same stores decoded ahead: the decoding thread adds and forgets keys",
        arguments: [MissingReferencePolicy.null, .placeholder])
    func keysAddedAndForgotten(policy: MissingReferencePolicy) throws {
        // p4's title is not text: under --on-error skip it is left out after its keys were met.
        let payload = MissingReferenceTests.payload.replacingOccurrences(
            of: "\n]}", with: ",\n  {\"id\": \"p4\", \"editor\": {\"id\": \"u7\", \"name\": \"Cy\"}, \"title\": [1]}\n]}")
        let fixture = try MissingReferenceTests.Fixture(payload: payload)
        var outcomes: [BenchmarkOutcome] = []
        for decodeAhead in [false, true] {
            outcomes.append(try fixture.benchmark(policy, batchSize: .occurrences(1), onError: .skip, decodeAhead: decodeAhead))
        }
        #expect(outcomes[0].skippedRecords.values.reduce(0, +) == 1, "p4 is skipped: \(outcomes[0].skippedRecords)")
        #expect(outcomes.allSatisfy { $0.results.allSatisfy { $0.valid } })
        let digests = outcomes.map { outcome in Dictionary(uniqueKeysWithValues: outcome.results.map { ($0.strategy, $0.digest) }) }
        #expect(digests[0] == digests[1])
        #expect(outcomes[1].results.allSatisfy { $0.decodeAhead })
    }
}
