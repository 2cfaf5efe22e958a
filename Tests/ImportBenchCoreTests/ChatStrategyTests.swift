import Foundation
import ImportBenchCore
import ImportBenchPayload
import ImportBenchStore
import ImportBenchStrategies
import Testing

/// Every strategy on small generated chat payloads: the counts each must reach, computed from the
/// payload's records, and the content every one must leave.
@Suite("Strategies on generated chat payloads")
struct ChatStrategyTests {
    static let scenario = ChatScenario()

    private func run(
        _ strategy: String, seed: UInt64, batchSize: BatchSize, chunk: Int = 500, in directory: TemporaryDirectory
    ) throws -> (ImportMeasurement, ExpectedContent, PayloadFacts) {
        let payload = directory.path("chat.json")
        try Self.scenario.generate(scale: 0.04, seed: seed, to: payload)
        let expected = try ExpectedContent.build(
            schema: Self.scenario.schema, reader: Self.scenario.openReader(path: payload), scratchPath: directory.path("expected.sqlite"))
        let facts = try PayloadFacts(reader: Self.scenario.openReader(path: payload), schema: Self.scenario.schema)
        let measurement = try ImportRun(
            scenario: Self.scenario, payloadPath: payload,
            method: try #require(StrategyCatalog.builtIn.strategy(named: strategy)).configured([StrategySettings.keysPerFetchName: "\(chunk)"]),
            batchSize: batchSize, databasePath: directory.path("\(strategy).sqlite")
        ).execute()
        return (measurement, expected, facts)
    }

    @Test("valid, with the fetch count of its formula", arguments: StrategyCatalog.builtIn.names, [UInt64(3), 11])
    func formulas(strategy: String, seed: UInt64) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let (measurement, expected, facts) = try run(strategy, seed: seed, batchSize: .occurrences(250), chunk: 40, in: directory)
        #expect(measurement.digest == expected.digest)
        #expect(measurement.occurrences == facts.occurrences.count)
        #expect(expected.uniqueObjects == facts.uniqueObjects)
        #expect(expected.keyOnlyReferences == facts.keyOnlyReferences)
        #expect(facts.keyOnlyReferences > 0, "the payload should quote earlier messages by id")
        let users = facts.occurrences.filter { $0.entity == Self.scenario.schema.index(of: "user") }
        #expect(users.count > 5 * Set(users.map(\.key)).count, "users should be embedded again and again")
        let fetches = measurement.counts.fetches
        switch strategy {
        case "naive": #expect(fetches == facts.naiveFetches)
        case "cache": #expect(fetches == facts.cacheFetches)
        case "prewarm": #expect(fetches == facts.prewarmFetches(batchSize: 250, chunk: 40))
        case "bulk": #expect(fetches == 1)  // whether the store is empty, once
        default: #expect(fetches == 0)
        }
    }

    @Test(
        "every row written once: inserts equal distinct objects, join upserts equal join pairs", arguments: ["naive", "cache", "prewarm", "ceiling"])
    func insertsMatchDistinctObjects(strategy: String) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let (measurement, expected, _) = try run(strategy, seed: 5, batchSize: .default, in: directory)
        let objects = expected.digest.tables.filter { !$0.name.contains(".") }.reduce(0) { $0 + $1.rows }
        // A join pair is written with ON CONFLICT DO UPDATE, so a refresh can tell it was listed again.
        let pairs = expected.digest.rowCount - objects
        #expect(pairs > 0)
        if strategy == "ceiling" {
            // Many rows to an INSERT: the rows are exact, and so are the statements, one per
            // `rowsPerInsert` rows of a table and one for its remainder (a set's pairs are upserts).
            func statements(_ rows: Int) -> Int { (rows + CeilingStrategy.rowsPerInsert - 1) / CeilingStrategy.rowsPerInsert }
            let tables = expected.digest.tables
            #expect(measurement.rowsWritten == Int64(objects + pairs))
            #expect(measurement.counts.inserts == tables.filter { !$0.name.contains(".") }.reduce(0) { $0 + statements($1.rows) })
            #expect(measurement.counts.upserts == tables.filter { $0.name.contains(".") }.reduce(0) { $0 + statements($1.rows) })
        } else {
            #expect(measurement.counts.inserts == objects)
            #expect(measurement.counts.upserts == pairs)
        }
    }
}

@Suite("Generated files and in-process generation")
struct GeneratedPayloadFileTests {
    @Test(
        "a payload written by generate, run with --payload, gives the in-process generator's digest",
        arguments: ScenarioRegistry.names)
    func sameDigest(scenarioName: String) throws {
        let scenario = try #require(ScenarioRegistry.scenario(named: scenarioName))
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let scale = try #require(Scale(factor: 0.02))
        let file = directory.path("payload")
        try scenario.generate(scale: scale.factor, seed: 9, to: file)
        let generated = try Benchmark(
            configuration: BenchmarkConfiguration(
                spec: RunSpec(scenario: scenario.source, payload: .generated(scale: scale, seed: 9)),
                strategies: [PrewarmStrategy.self])
        ).run()
        let recorded = try Benchmark(
            configuration: BenchmarkConfiguration(
                spec: RunSpec(scenario: scenario.source, payload: .file(file)),
                strategies: [PrewarmStrategy.self])
        ).run()
        #expect(generated.results.map(\.digest) == recorded.results.map(\.digest))
        #expect(recorded.results.allSatisfy { $0.valid })
        #expect(recorded.results.first?.scale == "recorded")
    }
}

@Suite("Repetitions and warm-up")
struct RepetitionTests {
    @Test("warm-up rounds are not reported; repetitions interleave strategies and repeat every count exactly")
    func warmupAndRepetitions() throws {
        let outcome = try Benchmark(
            configuration: BenchmarkConfiguration(
                spec: RunSpec(scenario: ProductsScenario().source, payload: .generated(scale: try #require(Scale(factor: 0.02)), seed: 1)),
                strategies: [NaiveStrategy.self, UpsertStrategy.self], repetitions: 2, warmup: 1)
        ).run()
        #expect(
            outcome.results.map { "\($0.repetition) \($0.strategy)" } == [
                "1 naive", "1 upsert", "1 ceiling", "2 naive", "2 upsert", "2 ceiling",
            ])
        for strategy in ["naive", "upsert", "ceiling"] {
            let runs = outcome.results.filter { $0.strategy == strategy }
            #expect(Set(runs.map { $0.measurement.counts }).count == 1, "\(strategy) counts differ between repetitions")
            #expect(runs.allSatisfy { $0.valid && $0.environment.cpuCount > 0 })
        }
    }
}

@Suite("Chat refreshes: the payload's sets replace the stored ones")
struct ChatRefreshTests {
    @Test("every strategy is valid on a refresh; replace loses links and the verifier names the relationships")
    func refreshAndReplacePitfall() throws {
        let strategies = StrategyCatalog.builtIn.all + [ImportMethod(ReplaceStrategy.self)]
        let outcome = try Benchmark(
            configuration: BenchmarkConfiguration(
                spec: RunSpec(
                    scenario: ChatScenario().source, payload: .generated(scale: try #require(Scale(factor: 0.05)), seed: 8),
                    preload: .generated(overlap: 1, changed: 0.5), options: RunOptions(batchSize: .occurrences(500))),
                strategies: strategies)
        ).run()
        #expect(outcome.results.count == strategies.count)
        for result in outcome.results where result.strategy != ReplaceStrategy.name {
            #expect(result.valid, "\(result.strategy): \(result.differences)")
        }
        let replace = try #require(outcome.results.first { $0.strategy == ReplaceStrategy.name })
        #expect(!replace.valid)
        // A replaced user takes every link to it along: the messages not in its batch lose their author.
        #expect(replace.differences.contains { $0.hasPrefix("relationship message.user lost ") })
        #expect(replace.differences.first?.hasPrefix("relationship ") == true)
    }

    /// What a refresh of a stored channel names: a stored message with an attachment and a
    /// mention, in a channel with two members, then the refresh's messages (and its one member,
    /// unless the channel comes without its members).
    struct QuoteCase: Sendable, CustomTestStringConvertible {
        let name: String
        let messages: String
        var listsMembers = true
        /// Rows the store must hold afterwards: attachments, mention pairs, members.
        let attachments: Int, mentions: Int, members: Int
        var testDescription: String { name }

        static let quoting =
            #"{"id":"m2","text":"re","user":{"id":"u2"},"quoted_message_id":"m1","#
            + #""quoted_message":{"id":"m1","text":"first","user":{"id":"u1"}},"attachments":[],"mentioned_users":[],"latest_reactions":[]}"#
        static let all = [
            QuoteCase(name: "only quoted, the copy without lists", messages: quoting, attachments: 1, mentions: 1, members: 1),
            QuoteCase(
                name: "quoted, the copy with its lists (as Stream sends it)",
                messages: #"{"id":"m2","text":"re","user":{"id":"u2"},"quoted_message_id":"m1","quoted_message":{"id":"m1","#
                    + #""text":"first","user":{"id":"u1"},"attachments":[{"type":"image","title":"b.png"}],"mentioned_users":[]},"#
                    + #""attachments":[],"mentioned_users":[],"latest_reactions":[]}"#,
                attachments: 1, mentions: 0, members: 1),
            QuoteCase(
                name: "named again without its lists",
                messages: quoting + #",{"id":"m1","text":"first","user":{"id":"u1"},"latest_reactions":[]}"#,
                attachments: 1, mentions: 1, members: 1),
            QuoteCase(
                name: "listed again, empty",
                messages: quoting + #",{"id":"m1","text":"first","user":{"id":"u1"},"attachments":[],"mentioned_users":[],"latest_reactions":[]}"#,
                attachments: 0, mentions: 0, members: 1),
            QuoteCase(name: "the channel without its members", messages: quoting, listsMembers: false, attachments: 1, mentions: 1, members: 2),
        ]

        var files: (preload: String, payload: String) {
            func channel(_ messages: String, members: String?) -> String {
                #"{"channels":[{"channel":{"cid":"messaging:c1"},"messages":["# + messages + "]"
                    + (members.map { #","members":["# + $0 + "]" } ?? "") + #","read":[]}]}"#
            }
            let stored =
                #"{"id":"m1","text":"first","user":{"id":"u1"},"attachments":[{"type":"file","title":"a.pdf"}],"#
                + #""mentioned_users":[{"id":"u2"}],"latest_reactions":[]}"#
            let owner = #"{"user":{"id":"u1"},"role":"owner"}"#
            return (
                channel(stored, members: owner + #",{"user":{"id":"u3"},"role":"member"}"#),
                channel(messages, members: listsMembers ? owner : nil)
            )
        }
    }

    @Test(
        "a refresh keeps the children of what it names without their lists (a quoted copy, a message or channel lacking them) and replaces those it lists, alike in the chat reader and its mapping",
        arguments: QuoteCase.all)
    func quotedCopyKeepsChildren(_ quote: QuoteCase) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let files = quote.files
        let preload = directory.path("preload.json")
        let payload = directory.path("refresh.json")
        try Data(files.preload.utf8).write(to: URL(fileURLWithPath: preload))
        try Data(files.payload.utf8).write(to: URL(fileURLWithPath: payload))
        let mapping = BuiltInMappings.path("chat")
        var digests: Set<String> = []
        for scenario in [ChatScenario().source, .mapping(mapping, sample: nil)] {
            let outcome = try Benchmark(
                configuration: BenchmarkConfiguration(
                    spec: RunSpec(
                        scenario: scenario, payload: .file(payload), preload: .file(preload),
                        options: RunOptions(batchSize: .occurrences(2))),
                    strategies: StrategyCatalog.builtIn.all)
            ).run()
            func rows(_ table: String) -> Int? { outcome.expected.digest.tables.first { $0.name == table }?.rows }
            #expect(rows("attachment") == quote.attachments, "\(scenario)")
            #expect(rows("message.mentioned_users") == quote.mentions, "\(scenario)")
            #expect(rows("member") == quote.members, "\(scenario)")
            #expect(rows("message") == 2)
            let imports = outcome.results.filter { $0.strategy != "ceiling" }
            #expect(imports.count == StrategyCatalog.builtIn.all.count - 1)
            for result in imports {
                #expect(result.valid, "\(scenario) \(result.strategy): \(result.differences)")
                digests.insert(result.digest)
            }
        }
        #expect(digests.count == 1)
    }

    @Test("upsert runs no RETURNING and upsert-returning does; both write the same content with no fetches")
    func returningOrNot() throws {
        let scenario = ChatScenario()
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let payload = directory.path("chat.json")
        try scenario.generate(scale: 0.02, seed: 4, to: payload)
        var digests: [ContentDigest] = []
        for strategy in [UpsertStrategy.self, UpsertReturningStrategy.self] as [any ImportStrategy.Type] {
            let store = try StoreConnection(path: directory.path("\(strategy.name).sqlite"))
            for statement in scenario.schema.ddl { try store.execute(statement) }
            var returning = 0
            var statements = 0
            store.traceStatements { sql in
                statements += 1
                if sql.uppercased().contains("RETURNING") { returning += 1 }
            }
            let context = StrategyContext(schema: scenario.schema, store: store)
            let instance = try strategy.init(context: context)
            let batcher = RecordBatcher(
                reader: try scenario.openReader(path: payload), batchSize: .occurrences(200), schema: scenario.schema,
                interner: context.interner)
            try store.inTransaction {
                while let batch = try batcher.next() { try instance.write(batch, pass: 0) }
                try instance.finishPass(0)
            }
            store.stopTracing()
            #expect(store.counter.counts.fetches == 0)
            #expect(statements > 100)
            if strategy.name == UpsertStrategy.name {
                #expect(returning == 0)
            } else {
                #expect(returning > 100)
            }
            digests.append(try scenario.schema.digest(of: store))
        }
        #expect(digests[0] == digests[1])
    }

    @Test("replace is listed but never run by --strategy all")
    func replaceIsAPitfall() {
        #expect(StrategyCatalog.builtIn.pitfalls.map { $0.name } == ["replace"])
        #expect(!StrategyCatalog.builtIn.names.contains("replace"))
        #expect(StrategyCatalog.builtIn.strategy(named: "replace") != nil)
        #expect(ReplaceStrategy.role == .pitfall)
    }
}
