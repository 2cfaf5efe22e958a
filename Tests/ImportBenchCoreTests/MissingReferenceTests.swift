import Foundation
import ImportBenchCore
import ImportBenchPayload
import ImportBenchStore
import Testing

/// `--missing-reference`: key-only references to objects neither stored nor earlier in the payload.
/// Every method that imports the payload itself (seed copy adopts a store instead).
private let importingStrategies: [String] = {
    var names: [String] = []
    for strategy in StrategyCatalog.builtIn.all where strategy.role != .alternative { names.append(strategy.name) }
    return names
}()

@Suite("Missing references")
struct MissingReferenceTests {
    static let mapping = """
        name: posts
        elements: posts
        element: post
        entities:
          user:
            key: id
            attributes: {name: text}
          post:
            key: id
            attributes: {title: text}
            to_one:
              editor: {entity: user, embedded: editor}
              author: {entity: user, key: author_id}
            many_to_many:
              likers: {entity: user, keys: liked_by}
        """

    /// p1 names u2 and u9 before any occurrence of them, p2 names u2 again, p3 names u3, which never
    /// occurs; u2 occurs (embedded) only in p3.
    static let payload = """
        {"posts": [
          {"id": "p1", "title": "one", "editor": {"id": "u1", "name": "Ann"}, "author_id": "u2", "liked_by": ["u1", "u9"]},
          {"id": "p2", "title": "two", "editor": {"id": "u1", "name": "Ann"}, "author_id": "u1", "liked_by": ["u2"]},
          {"id": "p3", "title": "three", "editor": {"id": "u2", "name": "Bo"}, "author_id": "u3", "liked_by": []}
        ]}
        """

    /// The fixture's files in a fresh directory.
    struct Fixture {
        let directory: TemporaryDirectory
        let mapping: String
        let payload: String

        init(payload text: String = MissingReferenceTests.payload) throws {
            directory = try TemporaryDirectory()
            mapping = directory.path("posts.yml")
            payload = directory.path("posts.json")
            try Data(MissingReferenceTests.mapping.utf8).write(to: URL(fileURLWithPath: mapping))
            try Data(text.utf8).write(to: URL(fileURLWithPath: payload))
        }

        func write(_ text: String, as name: String) throws -> String {
            let path = directory.path(name)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }

        func benchmark(
            _ policy: MissingReferencePolicy, preload: String? = nil, batchSize: BatchSize = .default, onError: PayloadErrorPolicy = .fail,
            decodeAhead: Bool = false
        ) throws -> BenchmarkOutcome {
            var spec = RunSpec(scenario: .mapping(mapping, sample: nil), payload: .file(payload), preload: preload.map(PreloadSpec.file))
            spec.options.missingReference = policy
            spec.options.batchSize = batchSize
            spec.options.onError = onError
            spec.options.decodeAhead = decodeAhead
            return try Benchmark(configuration: BenchmarkConfiguration(spec: spec, strategies: StrategyCatalog.builtIn.all)).run()
        }

        /// (user key, name) and (post key, author key, likers) as one strategy's store holds them.
        func stored(_ policy: MissingReferencePolicy, strategy: ImportMethod) throws -> (users: [String], posts: [String]) {
            let scenario = try MappedScenario.load(path: mapping)
            var options = RunOptions(missingReference: policy)
            options.batchSize = .occurrences(2)
            let database = directory.path("\(strategy.name)-\(policy).sqlite")
            _ = try ImportRun(scenario: scenario, payloadPath: payload, method: strategy, databasePath: database, options: options).execute()
            let store = try StoreConnection(path: database)
            func rows(_ sql: String) throws -> [String] {
                let statement = try store.prepare(sql)
                defer { statement.reset() }
                var rows: [String] = []
                while try statement.step() {
                    rows.append(
                        (0..<statement.columnCount).map { column in
                            if case .text(let text) = statement.value(at: column) { return text }
                            return "\(statement.value(at: column))"
                        }.joined(separator: " "))
                }
                return rows
            }
            let users = try rows("SELECT id, name FROM user ORDER BY id")
            let posts = try rows(
                """
                SELECT p.id, a.id, (SELECT group_concat(u.id, ',') FROM (SELECT u.id FROM post_likers AS j JOIN user AS u ON u.pk = j.target_pk
                WHERE j.source_pk = p.pk ORDER BY u.id) AS u) FROM post AS p LEFT JOIN user AS a ON a.pk = p.author_pk ORDER BY p.id
                """)
            return (users, posts)
        }
    }

    @Test("fail stops every strategy at the first missing target, naming it")
    func failStops() throws {
        let fixture = try Fixture()
        let error = #expect(throws: (any Error).self) { try fixture.benchmark(.fail) }
        #expect("\(error.map { String(describing: $0) } ?? "")".contains("author refers to user"))
    }

    @Test(
        "null drops each missing reference: NULL for a to-one, out of the set for a member; every strategy alike",
        arguments: importingStrategies)
    func nullDrops(strategyName: String) throws {
        let fixture = try Fixture()
        let strategy = try #require(StrategyCatalog.builtIn.all.first { $0.name == strategyName })
        let (users, posts) = try fixture.stored(.null, strategy: strategy)
        #expect(users == ["u1 Ann", "u2 Bo"])
        // u2 is dropped from p1 and p2 alike: it occurs only later, in p3.
        #expect(posts == ["p1 NULL u1", "p2 u1 NULL", "p3 NULL NULL"])
    }

    @Test(
        "placeholder writes a key-only row first and keeps the reference; a later occurrence fills it in",
        arguments: importingStrategies)
    func placeholderStubs(strategyName: String) throws {
        let fixture = try Fixture()
        let strategy = try #require(StrategyCatalog.builtIn.all.first { $0.name == strategyName })
        let (users, posts) = try fixture.stored(.placeholder, strategy: strategy)
        #expect(users == ["u1 Ann", "u2 Bo", "u3 NULL", "u9 NULL"])
        #expect(posts == ["p1 u2 u1,u9", "p2 u1 u2", "p3 u3 NULL"])
    }

    @Test(
        "each policy runs valid with every strategy, at every batch size, and the header counts what it changed",
        arguments: [MissingReferencePolicy.null, .placeholder], [BatchSize.occurrences(1), .occurrences(3), .all])
    func validEverywhere(policy: MissingReferencePolicy, batchSize: BatchSize) throws {
        let fixture = try Fixture()
        let outcome = try fixture.benchmark(policy, batchSize: batchSize)
        #expect(outcome.results.count == StrategyCatalog.builtIn.all.count)
        let digests = Set(outcome.results.map(\.digest))
        #expect(digests.count == 1)
        for result in outcome.results { #expect(result.valid, "\(result.strategy): \(result.differences)") }
        // 3 posts and 3 embedded editors, and under placeholder 3 stubs (u2, u9, u3).
        #expect(outcome.expected.occurrences == (policy == .placeholder ? 9 : 6))
        #expect(outcome.expected.uniqueObjects == (policy == .placeholder ? 7 : 5))
        let note = policy == .placeholder ? "placeholder rows written for missing references" : "missing references dropped"
        #expect(
            outcome.readingNotes.contains { $0.hasPrefix(note) && $0.hasSuffix(policy == .placeholder ? ": 3 user" : ": 4 user") },
            "\(outcome.readingNotes)")
    }

    @Test(
        "a refresh's references may name what its preload stored: those are kept under either policy",
        arguments: [MissingReferencePolicy.null, .placeholder])
    func preloadedTargetsAreKnown(policy: MissingReferencePolicy) throws {
        let fixture = try Fixture()
        let preload = try fixture.write(
            """
            {"posts": [{"id": "p0", "title": "zero", "editor": {"id": "u3", "name": "Cy"}, "author_id": "u3", "liked_by": ["u9"]}]}
            """, as: "preload.json")
        let outcome = try fixture.benchmark(policy, preload: preload)
        for result in outcome.results { #expect(result.valid, "\(result.strategy): \(result.differences)") }
        // u3 is stored by the preload; the preload's own u9 was missing there and is resolved there.
        let counted = policy == .placeholder ? ": 1 user" : ": 3 user"
        #expect(outcome.readingNotes.contains { $0.hasSuffix(counted) }, "\(outcome.readingNotes)")
    }

    @Test(
        "a resolved stream is the same read as owned units (the verifier's path) and through the builder (the strategies')",
        arguments: [MissingReferencePolicy.null, .placeholder])
    func bothPathsAgree(policy: MissingReferencePolicy) throws {
        let fixture = try Fixture()
        let scenario = try MappedScenario.load(path: fixture.mapping)
        let reading = PayloadReading(missingReference: policy)
        // Embedded references as the stream position they point at: a unit index plus the unit's
        // first position on one path, a stream ordinal on the other.
        var owned: [RecordOccurrence] = []
        var ownedText: [String] = []
        let unitReader = try scenario.openPayload(path: fixture.payload, reading: reading)
        while let unit = try unitReader.nextUnit() {
            let first = owned.count
            owned += unit.occurrences
            ownedText += unit.occurrences.map { describe($0, base: first) }
        }
        var batched: [RecordOccurrence] = []
        let batcher = RecordBatcher(
            reader: try scenario.openPayload(path: fixture.payload, reading: reading), batchSize: .occurrences(2), schema: scenario.schema)
        while let batch = try batcher.next() { batched += batch.occurrences.map(\.materialized) }
        #expect(owned.count == (policy == .placeholder ? 9 : 6))
        #expect(batched.map { describe($0, base: 0) } == ownedText)
        // Every embedded reference points at an earlier occurrence of its key.
        for (position, occurrence) in batched.enumerated() {
            for reference in occurrence.toOne.compactMap({ $0 }) + occurrence.manyToMany.joined() {
                guard let target = reference.embeddedOrdinal else { continue }
                #expect(target < position && batched[target].key == reference.key, "occurrence \(position) -> \(target)")
            }
        }
    }

    private func describe(_ occurrence: RecordOccurrence, base: Int) -> String {
        func reference(_ reference: Reference?) -> String {
            guard let reference else { return "-" }
            return reference.embeddedOrdinal.map { "@\(base + $0):\(reference.key)" } ?? "=\(reference.key)"
        }
        return "\(occurrence.entity) \(occurrence.key) \(occurrence.attributes) \(occurrence.toOne.map(reference)) "
            + "\(occurrence.manyToMany.map { $0.map(reference) })"
    }
}
