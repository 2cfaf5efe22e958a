import Foundation
import ImportBenchCore
import ImportBenchSchema
import ImportBenchStore
import ImportBenchStrategies
import Testing

/// Imports that stop early (a payload cut short, a dangling reference, an interruption) must leave
/// a store holding exactly the batches they committed, and a checkpointed one must resume to the
/// same content as an uninterrupted import.
@Suite("Failed, interrupted and resumed imports")
struct FailedImportTests {
    static let strategyNames = StrategyCatalog.builtIn.names

    /// The store's digest, and the digest its committed batches must give, worked out from the records.
    /// A stopped bulk import is held to its rows and tables: it builds its indexes after its last
    /// batch, so a store it left midway lacks them (and must lack them: it dropped every one).
    private func committedDigests(
        of run: ImportRun, after error: ImportStop, in directory: TemporaryDirectory
    ) throws -> (ContentDigest, ContentDigest) {
        let store = try StoreConnection(path: run.databasePath)
        let actual = try run.scenario.schema.digest(of: store)
        let expected = try run.committedDigest(
            pass: error.pass, committedOccurrences: error.committedOccurrences, scratchPath: directory.path("committed.sqlite"))
        guard run.method.name == BulkStrategy.name, error.committedOccurrences > 0, run.preloadPath == nil else { return (actual, expected) }
        #expect(actual.indexDifferences(from: expected) == run.scenario.schema.indexNames.count)
        return (actual.withoutIndexes, expected.withoutIndexes)
    }

    @Test(
        "a payload cut short: the run stops at a whole batch, names the byte, and keeps exactly its committed batches",
        arguments: strategyNames, [0.35, 0.8])
    func truncatedPayload(strategy: String, fraction: Double) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let scenario = QuakesScenario()
        let (cutPath, cut) = try FixtureScenario.cutQuakes(at: fraction, in: directory)

        let run = ImportRun(
            scenario: scenario, payloadPath: cutPath, method: try #require(StrategyCatalog.builtIn.strategy(named: strategy)),
            batchSize: .occurrences(40), databasePath: directory.path("store.sqlite"))
        let error = try expectStop { _ = try run.execute() }
        #expect(error.stage == .reading)
        guard case .payload(let payloadError) = error.cause else {
            Issue.record("expected the payload's error, got \(error.cause)")
            return
        }
        #expect(payloadError.file == cutPath)
        #expect(payloadError.byteOffset == cut)
        if strategy == "ceiling" {
            #expect(error.committedOccurrences == 0)
        } else {
            #expect(error.committedOccurrences > 0)
            #expect(error.committedOccurrences == error.committedBatches * 40)
        }
        let (actual, expected) = try committedDigests(of: run, after: error, in: directory)
        #expect(actual == expected, "\(actual.differences(from: expected))")
    }

    @Test("a dangling reference rolls back its batch and keeps the earlier ones", arguments: strategyNames)
    func danglingReference(strategy: String) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let payload = directory.path("payload")
        try Data().write(to: URL(fileURLWithPath: payload))
        let units = FixtureScenario.forumUnitsWithOrphan
        let run = ImportRun(
            scenario: PathSwitchingScenario(units: [payload: units]), payloadPath: payload,
            method: try #require(StrategyCatalog.builtIn.strategy(named: strategy)), batchSize: .occurrences(5),
            databasePath: directory.path("store.sqlite"))
        let error = try expectStop { _ = try run.execute() }
        guard case .strategy(.danglingReference(_, let sourceKey, let relationship, _, let targetKey)) = error.cause else {
            Issue.record("expected a dangling reference, got \(error.cause)")
            return
        }
        #expect(sourceKey == .integer(7) && relationship == "reply_to" && targetKey == .integer(99))
        let (actual, expected) = try committedDigests(of: run, after: error, in: directory)
        #expect(actual == expected, "\(actual.differences(from: expected))")
        // The orphan is the last occurrence: every whole batch before the one holding it stays.
        let occurrences = units.reduce(0) { $0 + $1.occurrences.count }
        #expect(error.committedOccurrences == (strategy == "ceiling" ? 0 : (occurrences - 1) / 5 * 5))
    }

    /// Chat refresh: owned children, a many-to-many set, a preload; small batches so there are many.
    private func chatRefresh(in directory: TemporaryDirectory) throws -> (payload: String, preload: String, expected: ExpectedContent) {
        let scenario = ChatScenario()
        let payload = directory.path("chat.json")
        let preload = directory.path("preload.json")
        try scenario.generate(scale: 0.02, seed: 9, to: payload)
        try scenario.generatePreload(scale: 0.02, seed: 9, overlap: 1, changed: 0.5, to: preload)
        let expected = try ExpectedContent.build(
            schema: scenario.schema, preload: scenario.openReader(path: preload), reader: scenario.openReader(path: payload),
            scratchPath: directory.path("expected.sqlite"))
        return (payload, preload, expected)
    }

    @Test(
        "interrupted, then resumed from its checkpoint: the same content as an uninterrupted refresh",
        arguments: strategyNames, [true, false])
    func interruptAndResume(strategy: String, early: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let (payload, preload, expected) = try chatRefresh(in: directory)
        let strategyType = try #require(StrategyCatalog.builtIn.strategy(named: strategy))
        let isReference = strategy == StrategyCatalog.builtIn.limit.name
        func makeRun() -> ImportRun {
            // The reference always loads into an empty store, as the benchmark runs it.
            ImportRun(
                scenario: ChatScenario(), payloadPath: payload, method: strategyType, batchSize: .occurrences(100),
                databasePath: directory.path("store.sqlite"), preloadPath: isReference ? nil : preload, checkpoint: true)
        }
        // Stop after the third batch, or two before the last (for idcache, late in its second pass).
        let batches = (expected.occurrences + 99) / 100 * strategyType.passes
        let afterBatches = early ? 3 : batches - 2
        var interrupted = makeRun()
        var batchesSeen = 0
        interrupted.stopRequested = { batchesSeen >= afterBatches }
        let error = try expectStop {
            _ = try interrupted.execute { _ in batchesSeen += 1 }
        }
        #expect(error.stage == .interrupted)
        let (actual, committed) = try committedDigests(of: interrupted, after: error, in: directory)
        #expect(actual == committed, "\(actual.differences(from: committed))")

        let resumed = try makeRun().execute()
        // The reference writes in one transaction: nothing of it was committed, so nothing is resumed.
        let point = ResumePoint(pass: error.pass, batches: error.committedBatches)
        #expect(resumed.resumedFrom == (point == ResumePoint(pass: 0, batches: 0) ? nil : point))
        #expect(isReference == (error.committedBatches == 0))
        var target = expected.digest
        if isReference {
            let scenario = ChatScenario()
            target = try ExpectedContent.build(
                schema: scenario.schema, reader: scenario.openReader(path: payload), scratchPath: directory.path("alone.sqlite")
            ).digest
        }
        #expect(resumed.digest == target, "\(resumed.digest.differences(from: target))")
        #expect(resumed.occurrences == expected.occurrences)
    }

    @Test("a checkpoint of another import is neither resumed nor discarded: refused, differences named, store untouched; --restart starts afresh")
    func foreignCheckpointRefused() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let (payload, preload, expected) = try chatRefresh(in: directory)
        let store = directory.path("store.sqlite")
        var first = ImportRun(
            scenario: ChatScenario(), payloadPath: payload, method: UpsertStrategy.self, batchSize: .occurrences(250),
            databasePath: store, preloadPath: preload, checkpoint: true)
        var batchesSeen = 0
        first.stopRequested = { batchesSeen >= 2 }
        let stopped = try expectStop { _ = try first.execute { _ in batchesSeen += 1 } }
        #expect(stopped.committedBatches == 2)
        let (committedBefore, _) = try committedDigests(of: first, after: stopped, in: directory)

        // Another batch size is another import: resuming its batch numbers would be wrong, and
        // starting over would throw the committed batches away.
        func other(restart: Bool, checkpoint: Bool = true) -> ImportRun {
            ImportRun(
                scenario: ChatScenario(), payloadPath: payload, method: UpsertStrategy.self, batchSize: .occurrences(100),
                databasePath: store, preloadPath: preload, checkpoint: checkpoint, restartCheckpoint: restart)
        }
        let refusal = expectRefusal { _ = try other(restart: false).execute() }
        #expect(
            refusal
                == .checkpointDiffers(
                    path: store, committed: "2 batches of pass 1", differences: ["batch size: 250 in the checkpoint, 100 now"]))
        #expect(try ChatScenario().schema.digest(of: StoreConnection(path: store)) == committedBefore)
        // A strategy configured otherwise (its settings travel with it) is another import too.
        let configured = ImportRun(
            scenario: ChatScenario(), payloadPath: payload,
            method: ImportMethod(UpsertStrategy.self).configured([StrategySettings.keysPerFetchName: "7"]), batchSize: .occurrences(250),
            databasePath: store, preloadPath: preload, checkpoint: true)
        #expect(
            expectRefusal { _ = try configured.execute() }
                == .checkpointDiffers(
                    path: store, committed: "2 batches of pass 1",
                    differences: ["strategy settings: none in the checkpoint, prewarm-chunk=7 now"]))
        // The same import without --checkpoint would start over: refused too.
        var same = first
        same.stopRequested = { false }
        var plain = same.spec
        plain.options.checkpoint = false
        let rerun = try ImportRun(spec: plain, scenario: ChatScenario(), method: UpsertStrategy.self, databasePath: store)
        #expect(expectRefusal { _ = try rerun.execute() } == .checkpointNotContinued(path: store, committed: "2 batches of pass 1"))

        let restarted = try other(restart: true).execute()
        #expect(restarted.resumedFrom == nil)
        #expect(restarted.digest == expected.digest)
    }

    @Test("a checkpoint of another store layout, or written before bench recorded the layout, is refused, naming why", arguments: [false, true])
    func otherStoreLayoutRefused(recorded: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let (payload, preload, _) = try chatRefresh(in: directory)
        let store = directory.path("store.sqlite")
        var first = ImportRun(
            scenario: ChatScenario(), payloadPath: payload, method: PrewarmStrategy.self, batchSize: .occurrences(250),
            databasePath: store, preloadPath: preload, checkpoint: true)
        var batchesSeen = 0
        first.stopRequested = { batchesSeen >= 2 }
        _ = #expect(throws: RunError.self) { try first.execute { _ in batchesSeen += 1 } }
        let older = Schema.storeLayout - 1
        let change = recorded ? "json_set(identity, '$.storeLayout', \(older))" : "json_remove(identity, '$.storeLayout')"
        try StoreConnection(path: store).execute("UPDATE importbench_import SET identity = \(change)")
        first.stopRequested = { false }
        let refusal = expectRefusal { _ = try first.execute() }
        let reason =
            recorded
            ? "store layout: \(older) in the checkpoint, \(Schema.storeLayout) now" : "the checkpoint was written by another version of bench"
        #expect(refusal == .checkpointDiffers(path: store, committed: "2 batches of pass 1", differences: [reason]))
    }
}
