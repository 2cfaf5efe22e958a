import Foundation
import ImportBenchCore
import ImportBenchPayload
import ImportBenchStore
import ImportBenchStrategies
import Testing

/// The staged strategy (set-based writes through TEMP tables) against the verifier: built-in
/// scenarios, refreshes, partial objects, self-references, dangling references, and its statement
/// counts. Not in the catalog yet, so every test hands the type over itself.
@Suite("Staged: set-based writes through TEMP tables")
struct StagedStrategyTests {
    /// The strategy as the runner holds it, for helpers that take a method.
    static let method = ImportMethod(StagedStrategy.self)

    /// Generates `scenarioName` at `scale`, imports it with staged, and builds the expected content.
    private func importScenario(
        _ scenarioName: String, scale: Double, batchSize: BatchSize, in directory: TemporaryDirectory
    ) throws -> (ImportMeasurement, ExpectedContent) {
        let scenario = try #require(ScenarioRegistry.scenario(named: scenarioName))
        let payload = directory.path("payload")
        try scenario.generate(scale: scale, seed: 7, to: payload)
        let expected = try ExpectedContent.build(
            schema: scenario.schema, reader: scenario.openReader(path: payload), scratchPath: directory.path("expected.sqlite"))
        let measurement = try ImportRun(
            scenario: scenario, payloadPath: payload, method: StagedStrategy.self, batchSize: batchSize,
            databasePath: directory.path("staged.sqlite")
        ).execute()
        return (measurement, expected)
    }

    @Test("valid on every built-in scenario, with no fetch", arguments: ScenarioRegistry.names, [BatchSize.occurrences(1000), .all])
    func builtInScenarios(scenarioName: String, batchSize: BatchSize) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let (measurement, expected) = try importScenario(scenarioName, scale: 0.05, batchSize: batchSize, in: directory)
        #expect(measurement.digest == expected.digest, "\(measurement.digest.differences(from: expected.digest))")
        #expect(measurement.counts.fetches == 0)
    }

    @Test("valid one occurrence per batch on every built-in scenario", arguments: ScenarioRegistry.names)
    func singleOccurrenceBatches(scenarioName: String) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let (measurement, expected) = try importScenario(scenarioName, scale: 0.01, batchSize: .occurrences(1), in: directory)
        #expect(measurement.digest == expected.digest, "\(measurement.digest.differences(from: expected.digest))")
        #expect(measurement.counts.fetches == 0)
    }

    @Test(
        "refreshes a generated preload to the expected content",
        arguments: ScenarioRegistry.names.map { ($0, 0.9, 0.2) } + [("chat", 1.0, 0.5)])
    // Chat's shares apply to channels, few at this scale: the second chat case makes sure some change.
    func generatedRefresh(scenarioName: String, overlap: Double, changed: Double) throws {
        let scenario = try #require(ScenarioRegistry.scenario(named: scenarioName))
        let outcome = try Benchmark(
            configuration: BenchmarkConfiguration(
                spec: RunSpec(
                    scenario: scenario.source, payload: .generated(scale: try #require(Scale(factor: 0.05)), seed: 3),
                    preload: .generated(overlap: overlap, changed: changed), options: RunOptions(batchSize: .occurrences(1000))),
                strategies: [StagedStrategy.self])
        ).run()
        let staged = try #require(outcome.results.first { $0.strategy == StagedStrategy.name })
        #expect(staged.valid, "\(staged.differences)")
        #expect(staged.measurement.counts.fetches == 0)
        let change = outcome.expected.outcome
        #expect(change.updated + change.unchanged > 0, "the preload should overlap the payload")
        if changed == 0.5 { #expect(change.updated > 0) }
    }

    @Test("the hand-checked forum: valid, last occurrence wins, sets unioned", arguments: [BatchSize.occurrences(1), .occurrences(5), .all])
    func forum(batchSize: BatchSize) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("store.sqlite")
        let scenario = FixtureScenario()
        let measurement = try ImportRun(
            scenario: scenario, payloadPath: path + ".payload", method: StagedStrategy.self, batchSize: batchSize, databasePath: path
        ).execute()
        let expected = try ExpectedContent.build(
            schema: scenario.schema, reader: ArrayRecordReader(scenario.units), scratchPath: directory.path("expected.sqlite"))
        #expect(measurement.digest == expected.digest, "\(measurement.digest.differences(from: expected.digest))")
        let store = try StoreConnection(path: path)
        #expect(try store.prepare("SELECT karma FROM author WHERE handle = 'alice'").scalarInt64() == 3)
        #expect(try store.prepare("SELECT count(*) FROM post_tags j JOIN post p ON p.pk = j.source_pk WHERE p.id = 1").scalarInt64() == 2)
        // Post 2 replies to post 1: a self-reference, set after the batch's posts are written.
        #expect(try store.prepare("SELECT r.id FROM post p JOIN post r ON r.pk = p.reply_to_pk WHERE p.id = 2").scalarInt64() == 1)
    }

    @Test("statements per batch: per entity a DELETE, a staging INSERT per 100 rows, one upsert per absent set; no fetch")
    func statementCounts() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("store.sqlite")
        let measurement = try ImportRun(
            scenario: FixtureScenario(), payloadPath: path + ".payload", method: StagedStrategy.self, batchSize: .all, databasePath: path
        ).execute()
        let counts = measurement.counts
        // One batch: author, tag, post, comment and post's tags each staged (DELETE + INSERT) and
        // written (one upsert); post's reply_to set by one UPDATE; the sweep's two DELETEs after.
        #expect(counts.fetches == 0)
        #expect(counts.inserts == 5)
        #expect(counts.upserts == 5)
        #expect(counts.updates == 1)
        #expect(counts.deletes == 5 + 2)
    }

    @Test("the hand-checked forum refresh: a preloaded store updated, children no longer listed removed", arguments: [1, 3])
    func forumRefresh(batchSize: Int) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let preload = directory.path("preload.payload")
        let payload = directory.path("refresh.payload")
        for path in [preload, payload] { try Data().write(to: URL(fileURLWithPath: path)) }
        let scenario = PathSwitchingScenario(units: [preload: FixtureScenario.forumUnits, payload: RefreshTests.refresh])
        let outcome = try Benchmark(
            configuration: BenchmarkConfiguration(
                spec: RunSpec(
                    scenario: scenario.source, payload: .file(payload), preload: .file(preload),
                    options: RunOptions(batchSize: .occurrences(batchSize))),
                strategies: [StagedStrategy.self]), scenario: scenario
        ).run()
        let staged = try #require(outcome.results.first { $0.strategy == StagedStrategy.name })
        #expect(staged.valid, "\(staged.differences)")
        #expect(staged.uniqueRecords == 8)
    }

    @Test("importing the same payload again on the same connection leaves the same content")
    func reimport() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("store.sqlite")
        let first = try ImportRun(
            scenario: FixtureScenario(), payloadPath: path + ".payload", method: StagedStrategy.self, batchSize: .occurrences(5),
            databasePath: path
        ).execute()
        let store = try StoreConnection(path: path)
        try store.execute("PRAGMA foreign_keys = ON")
        let context = StrategyContext(schema: FixtureScenario.schema, store: store)
        // Two instances on one connection: the second replaces the first's TEMP tables.
        for _ in 0..<2 {
            let instance = try StagedStrategy(context: context)
            let batcher = RecordBatcher(
                reader: ArrayRecordReader(FixtureScenario.forumUnits), batchSize: .occurrences(4), schema: FixtureScenario.schema,
                interner: context.interner)
            while let batch = try batcher.next() {
                try store.inTransaction { try instance.write(batch, pass: 0) }
            }
            try store.inTransaction { try instance.finishPass(0) }
            #expect(try FixtureScenario.schema.digest(of: store) == first.digest)
        }
    }
}

@Suite("Staged: partial objects and self-references")
struct StagedPartialObjectTests {
    /// One occurrence per batch, a few, and the whole payload in one.
    static let batchSizes: [BatchSize] = [.occurrences(1), .occurrences(3), .all]

    @Test("merges partial objects within and across batches", arguments: batchSizes)
    func partialUsers(batchSize: BatchSize) throws {
        let fixture = try AbsentMembersTests.Fixture()
        let (measurement, store) = try fixture.run(StagedStrategyTests.method, batchSize: batchSize)
        #expect(measurement.digest == fixture.expected.digest, "\(measurement.digest.differences(from: fixture.expected.digest))")
        #expect(try AbsentMembersTests.users(in: store) == AbsentMembersTests.merged)
    }

    @Test(
        "the statuses example: users whole and in part, replies to earlier statuses", arguments: [BatchSize.occurrences(1), .occurrences(1000), .all])
    func statusesExample(batchSize: BatchSize) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let folder = BuiltInMappings.scenarios.appendingPathComponent("examples/statuses")
        let scenario = try MappedScenario.load(path: folder.appendingPathComponent("mapping.yml").path)
        let payload = folder.appendingPathComponent("statuses.json").path
        let expected = try ExpectedContent.build(
            schema: scenario.schema, reader: scenario.openReader(path: payload), scratchPath: directory.path("expected.sqlite"))
        let measurement = try ImportRun(
            scenario: scenario, payloadPath: payload, method: StagedStrategy.self, batchSize: batchSize,
            databasePath: directory.path("staged.sqlite")
        ).execute()
        #expect(measurement.digest == expected.digest, "\(measurement.digest.differences(from: expected.digest))")
        #expect(measurement.counts.fetches == 0)
    }

    /// A stored channel whose message m1 has an attachment and a mention; the refresh quotes m1
    /// (a copy without its lists), and quotes a message of its own batch, which quotes m1.
    static let preload =
        #"{"channels":[{"channel":{"cid":"messaging:c1"},"messages":[{"id":"m1","text":"first","user":{"id":"u1"},"#
        + #""attachments":[{"type":"file","title":"a.pdf"}],"mentioned_users":[{"id":"u2"}],"latest_reactions":[]}],"#
        + #""members":[{"user":{"id":"u1"},"role":"owner"},{"user":{"id":"u3"},"role":"member"}],"read":[]}]}"#
    /// The refresh: m3 quotes m2, which quotes m1; the channel lists one member now.
    static let refresh =
        #"{"channels":[{"channel":{"cid":"messaging:c1"},"messages":["#
        + #"{"id":"m3","text":"re re","user":{"id":"u3"},"quoted_message_id":"m2","#
        + #""quoted_message":{"id":"m2","text":"re","user":{"id":"u2"},"quoted_message_id":"m1"},"#
        + #""attachments":[],"mentioned_users":[{"id":"u1"}],"latest_reactions":[]},"#
        + #"{"id":"m2","text":"re","user":{"id":"u2"},"quoted_message_id":"m1","#
        + #""quoted_message":{"id":"m1","text":"first","user":{"id":"u1"}},"attachments":[],"mentioned_users":[],"latest_reactions":[]}],"#
        + #""members":[{"user":{"id":"u1"},"role":"owner"}],"read":[]}]}"#

    @Test("a chat refresh quoting stored messages and messages of its own batch", arguments: [BatchSize.occurrences(1), .occurrences(2), .all])
    func quotedMessages(batchSize: BatchSize) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let preload = directory.path("preload.json")
        let payload = directory.path("refresh.json")
        try Data(Self.preload.utf8).write(to: URL(fileURLWithPath: preload))
        try Data(Self.refresh.utf8).write(to: URL(fileURLWithPath: payload))
        let scenario = ChatScenario()
        let expected = try ExpectedContent.build(
            schema: scenario.schema, preload: scenario.openReader(path: preload), reader: scenario.openReader(path: payload),
            scratchPath: directory.path("expected.sqlite"))
        let store = directory.path("staged.sqlite")
        let measurement = try ImportRun(
            scenario: scenario, payloadPath: payload, method: StagedStrategy.self, databasePath: store, preloadPath: preload,
            options: RunOptions(batchSize: batchSize)
        ).execute()
        #expect(measurement.digest == expected.digest, "\(measurement.digest.differences(from: expected.digest))")
        let quotes = try StoreConnection(path: store).prepare(
            #"SELECT m."id", q."id" FROM "message" m JOIN "message" q ON q.pk = m."quoted_message_pk" ORDER BY 1"#)
        var pairs: [[StoreValue]] = []
        while try quotes.step() { pairs.append(quotes.row()) }
        quotes.reset()
        #expect(pairs == [["m2", "m1"], ["m3", "m2"]])
        #expect(expected.digest.tables.first { $0.name == "attachment" }?.rows == 1, "the quoted copy keeps m1's attachment")
    }
}

@Suite("Staged: dangling references")
struct StagedDanglingTests {
    /// A dangling case: the occurrence appended to the forum, and the error it must stop with.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let post: RecordOccurrence
        let relationship: String, target: String, sourceKey: StoreValue, targetKey: StoreValue
        var testDescription: String { name }

        /// A self-reference, a to-one to another entity, and a set member.
        static let all = [
            Case(
                name: "a self-reference (reply_to)",
                post: FixtureScenario.post(7, "orphan", author: .keyOnly("bob"), replyTo: .keyOnly(99), tags: []),
                relationship: "reply_to", target: "post", sourceKey: 7, targetKey: 99),
            Case(
                name: "a to-one to another entity (author)", post: FixtureScenario.post(8, "anonymous", author: .keyOnly("nobody"), tags: []),
                relationship: "author", target: "author", sourceKey: 8, targetKey: "nobody"),
            Case(
                name: "a many-to-many member (tags)",
                post: FixtureScenario.post(9, "tagged", author: .keyOnly("bob"), tags: [.keyOnly("swift"), .keyOnly("rust")]),
                relationship: "tags", target: "tag", sourceKey: 9, targetKey: "rust"),
        ]
    }

    @Test("stops with the located reference and rolls its batch back, keeping earlier batches", arguments: Case.all, [5, 100])
    func dangling(_ dangling: Case, batchSize: Int) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let payload = directory.path("payload")
        try Data().write(to: URL(fileURLWithPath: payload))
        let units = FixtureScenario.forumUnits + [RecordUnit(occurrences: [dangling.post], path: "posts[3]", byteOffset: 300)]
        let run = ImportRun(
            scenario: PathSwitchingScenario(units: [payload: units]), payloadPath: payload, method: StagedStrategy.self,
            batchSize: .occurrences(batchSize), databasePath: directory.path("store.sqlite"))
        let error = try expectStop { _ = try run.execute() }
        #expect(
            error.cause
                == .strategy(
                    .danglingReference(
                        source: "post", sourceKey: dangling.sourceKey, relationship: dangling.relationship, target: dangling.target,
                        targetKey: dangling.targetKey)))
        let occurrences = units.reduce(0) { $0 + $1.occurrences.count }
        #expect(error.committedOccurrences == (occurrences - 1) / batchSize * batchSize)
        let store = try StoreConnection(path: run.databasePath)
        let committed = try run.committedDigest(
            pass: error.pass, committedOccurrences: error.committedOccurrences, scratchPath: directory.path("committed.sqlite"))
        #expect(try run.scenario.schema.digest(of: store) == committed)
        #expect(try store.prepare("SELECT count(*) FROM post WHERE id >= 7").scalarInt64() == 0)
    }
}
