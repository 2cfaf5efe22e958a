import Foundation
import ImportBenchCore
import ImportBenchPayload
import ImportBenchStore
import ImportBenchStrategies
import Testing

private let chatMapping = BuiltInMappings.path("chat")

@Suite("Scaling a recorded sample (--from)")
struct SampleScalerTests {
    /// The channels of a chat payload file, as parsed JSON.
    static func channels(_ path: String) throws -> [[String: Any]] {
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        return try #require(document?["channels"] as? [[String: Any]])
    }

    static func cid(_ channel: [String: Any]) -> String? {
        (channel["channel"] as? [String: Any])?["cid"] as? String
    }

    /// Every user id anywhere in a chat payload.
    static func userIDs(_ path: String) throws -> Set<String> {
        var ids: Set<String> = []
        func visit(_ value: Any, key: String?) {
            if let object = value as? [String: Any] {
                if ["user", "created_by"].contains(key), let id = object["id"] as? String { ids.insert(id) }
                for (name, member) in object { visit(member, key: name) }
            } else if let array = value as? [Any] {
                for element in array { visit(element, key: key == "mentioned_users" ? "user" : key) }
            }
        }
        visit(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))), key: nil)
        return ids
    }

    @Test("1x is the sample byte for byte; the same scale gives the same bytes; 0.5x is a prefix; copies get keys of their own, shared users stay")
    func copies() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let sample = directory.path("sample.json")
        try ChatScenario().generate(scale: 0.1, seed: 5, to: sample)
        let scenario = try MappedScenario.load(path: chatMapping, sample: sample)
        for scale in [1.0, 0.5, 2.5] {
            try scenario.generate(scale: scale, seed: 1, to: directory.path("\(scale).json"))
        }
        try scenario.generate(scale: 2.5, seed: 99, to: directory.path("again.json"))

        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.path("1.0.json"))) == Data(contentsOf: URL(fileURLWithPath: sample)))
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: directory.path("2.5.json")))
                == Data(contentsOf: URL(fileURLWithPath: directory.path("again.json"))))

        let original = try Self.channels(sample)
        let half = try Self.channels(directory.path("0.5.json"))
        #expect(half.count == Int((Double(original.count) / 2).rounded()))
        #expect(half.map(Self.cid) == original.prefix(half.count).map(Self.cid))

        let scaled = try Self.channels(directory.path("2.5.json"))
        #expect(scaled.count == 2 * original.count + half.count)
        let expectedCIDs =
            original.map(Self.cid) + original.map { Self.cid($0).map { "\($0)~1" } }
            + original.prefix(half.count).map { Self.cid($0).map { "\($0)~2" } }
        #expect(scaled.map(Self.cid) == expectedCIDs)
        #expect(try Self.userIDs(directory.path("2.5.json")) == Self.userIDs(sample))
    }

    @Test("a 3x copy imports valid with every strategy: three times the unshared objects, the shared ones once")
    func importsScaled() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let sample = directory.path("sample.json")
        try ChatScenario().generate(scale: 0.05, seed: 2, to: sample)
        let reference = ScenarioSource.mapping(chatMapping, sample: sample)
        func run(_ scale: Double, _ strategies: [ImportMethod]) throws -> BenchmarkOutcome {
            try Benchmark(
                configuration: BenchmarkConfiguration(
                    spec: RunSpec(scenario: reference, payload: .generated(scale: try #require(Scale(factor: scale)), seed: 1)),
                    strategies: strategies)
            ).run()
        }
        let once = try run(1, [ImportMethod(CeilingStrategy.self)])
        let thrice = try run(3, StrategyCatalog.builtIn.all)
        #expect(thrice.results.allSatisfy { $0.valid })
        #expect(Set(thrice.results.map(\.digest)).count == 1)
        func rows(_ outcome: BenchmarkOutcome, _ table: String) -> Int? {
            outcome.expected.digest.tables.first { $0.name == table }?.rows
        }
        #expect(thrice.expected.occurrences == 3 * once.expected.occurrences)
        let users = try #require(rows(once, "user"))
        #expect(users > 0)
        #expect(rows(thrice, "user") == users)
        #expect(rows(thrice, "message") == (rows(once, "message") ?? 0) * 3)
        #expect(thrice.expected.uniqueObjects - users == 3 * (once.expected.uniqueObjects - users))
    }

    /// (folder, sample, the collection copied per copy, its table)
    static let workedExamples = [
        ("orders", "orders.json", "orders", "order"), ("statuses", "statuses.json", "statuses", "status"),
        ("catalog", "catalog.json", "performances", "performance"),
    ]

    @Test(
        "the worked examples (Scenarios/examples) import valid with every strategy, at 1x and through --from at 10x",
        arguments: workedExamples, [1.0, 10.0])
    func workedExample(example: (String, String, String, String), scale: Double) throws {
        let (name, sampleName, collection, table) = example
        let folder = URL(fileURLWithPath: chatMapping).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("examples/\(name)")
        let reference = ScenarioSource.mapping(
            folder.appendingPathComponent("mapping.yml").path, sample: folder.appendingPathComponent(sampleName).path)
        let outcome = try Benchmark(
            configuration: BenchmarkConfiguration(
                spec: RunSpec(scenario: reference, payload: .generated(scale: try #require(Scale(factor: scale)), seed: 1)),
                strategies: StrategyCatalog.builtIn.all)
        ).run()
        #expect(outcome.results.count == StrategyCatalog.builtIn.all.count)
        #expect(outcome.results.allSatisfy { $0.valid }, "\(outcome.results.filter { !$0.valid }.map(\.differences))")
        #expect(Set(outcome.results.map(\.digest)).count == 1)
        // Every element of the sample's collection, once per copy.
        let sample = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(sampleName))) as? [String: Any]
        let elements = try #require((sample?[collection] as? [Any])?.count)
        #expect(elements > 0)
        #expect(outcome.expected.digest.tables.first { $0.name == table }?.rows == Int(Double(elements) * scale))
    }

    @Test("18-digit ids, as numbers and as digits in text, scale to 10x with keys all distinct, moved by their span; past Int64 is refused")
    func largeIntegerKeys() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let sample = directory.path("tweets.json")
        try Data(
            #"""
            [{"id": 146829742638374502, "reply": null},
             {"id": 146829742638375003, "reply": 146829742638374502},
             {"id": "146829742638399999", "reply": "146829742638375003"},
             {"id": 146829742638400000, "reply": 146829742638399999}]
            """#.utf8
        ).write(to: URL(fileURLWithPath: sample))
        let yaml = "name: tweets\nelement: tweet\nentities:\n  tweet:\n    key: id\n    to_one:\n      reply: {entity: tweet, key: reply}\n"
        let mapping = try PayloadMapping(yaml: yaml, file: "t.yml")
        let scaled = directory.path("10x.json")
        try SampleScaler(mapping: mapping, sample: sample).write(scale: 10, to: scaled)
        let copies = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scaled))) as? [[String: Any]])
        let keys = copies.compactMap { ($0["id"] as? NSNumber)?.int64Value ?? ($0["id"] as? String).flatMap { Int64($0) } }
        #expect(keys.count == 40 && Set(keys).count == 40)
        #expect(keys.allSatisfy { (100_000_000_000_000_000...).contains($0) }, "18 digits or more, never wrapped")
        // Each copy's replies name that copy's tweets: the import is valid, 40 objects.
        #expect(try Self.naiveImport(of: scaled, through: mapping, batchSize: 7, in: directory) == 40)
        // A span that 10 copies would carry past Int64 is refused before anything is written.
        try Data(#"[{"id": 9000000000000000000, "reply": null}, {"id": 1, "reply": null}]"#.utf8).write(to: URL(fileURLWithPath: sample))
        let error = #expect(throws: PayloadError.self) {
            try SampleScaler(mapping: mapping, sample: sample).write(scale: 10, to: directory.path("over.json"))
        }
        #expect(error?.expected == .integerKeysThatFit(copies: 10, stride: 9_000_000_000_000_000_000))
        #expect(!FileManager.default.fileExists(atPath: directory.path("over.json")))
    }

    @Test("keys the reader keeps apart stay apart in copies: \"007\" is text, \"7\" and 7 one integer, \"-5\" and -5 too")
    func keysAsTheReaderReadsThem() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let sample = directory.path("keys.json")
        try Data(#"[{"id": "007", "ref": null}, {"id": "7", "ref": "007"}, {"id": "-5", "ref": 7}, {"id": 8, "ref": -5}]"#.utf8)
            .write(to: URL(fileURLWithPath: sample))
        let yaml = "name: keys\nelement: item\nentities:\n  item:\n    key: id\n    to_one:\n      ref: {entity: item, key: ref}\n"
        let mapping = try PayloadMapping(yaml: yaml, file: "k.yml")
        let scaled = directory.path("2x.json")
        try SampleScaler(mapping: mapping, sample: sample).write(scale: 2, to: scaled)
        #expect(try Self.naiveImport(of: scaled, through: mapping, batchSize: 1, in: directory) == 8)
    }

    /// Imports `payload` with naive and checks its digest against the reader's expected content;
    /// returns how many distinct objects that content holds.
    static func naiveImport(of payload: String, through mapping: PayloadMapping, batchSize: Int, in directory: TemporaryDirectory) throws -> Int {
        let scenario = MappedScenario(mapping: mapping, file: "scaled.yml")
        let expected = try ExpectedContent.build(
            schema: mapping.schema, reader: scenario.openReader(path: payload), scratchPath: directory.path("expected.sqlite"))
        let measurement = try ImportRun(
            scenario: scenario, payloadPath: payload, method: try #require(StrategyCatalog.builtIn.strategy(named: "naive")),
            databasePath: directory.path("store.sqlite"), options: RunOptions(batchSize: .occurrences(batchSize))
        ).execute()
        #expect(measurement.digest == expected.digest)
        return expected.uniqueObjects
    }

    @Test("integer keys below 10^12 move by 10^12 per copy; a key composed of values only cannot be copied apart")
    func integerKeysAndComposedValues() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let sample = directory.path("orders.json")
        try Data(#"[{"id": 7, "note": "a"}, {"id": 8, "note": "b"}]"#.utf8).write(to: URL(fileURLWithPath: sample))
        let mapping = try PayloadMapping(
            yaml: "name: orders\nelement: order\nentities:\n  order:\n    key: id\n    attributes: {note: text}\n", file: "o.yml")
        try SampleScaler(mapping: mapping, sample: sample).write(scale: 2, to: directory.path("2x.json"))
        #expect(
            try String(contentsOfFile: directory.path("2x.json"), encoding: .utf8)
                == #"[{"id": 7, "note": "a"},{"id": 8, "note": "b"},{"id": 1000000000007, "note": "a"},{"id": 1000000000008, "note": "b"}]"#)

        // A key written as digits in text is the same key as the number: both move alike.
        try Data(#"[{"id": 7, "note": "a"}, {"id": "8", "note": "b"}]"#.utf8).write(to: URL(fileURLWithPath: sample))
        try SampleScaler(mapping: mapping, sample: sample).write(scale: 2, to: directory.path("mixed.json"))
        #expect(
            try String(contentsOfFile: directory.path("mixed.json"), encoding: .utf8)
                == #"[{"id": 7, "note": "a"},{"id": "8", "note": "b"},{"id": 1000000000007, "note": "a"},{"id": "1000000000008", "note": "b"}]"#)
        // Keys a copy's could equal are refused, naming where they are; at 1x nothing is copied.
        for clash in [#"[{"id": "a~1"}]"#] {
            try Data(clash.utf8).write(to: URL(fileURLWithPath: sample))
            let error = #expect(throws: PayloadError.self) {
                try SampleScaler(mapping: mapping, sample: sample).write(scale: 2, to: directory.path("clash.json"))
            }
            #expect(error?.path == "[0].id", "\(clash)")
            try SampleScaler(mapping: mapping, sample: sample).write(scale: 1, to: directory.path("one.json"))
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path("clash.json")))

        let composed = try PayloadMapping(
            yaml: "name: orders\nelement: order\nentities:\n  order:\n    key: {compose: \"{note}-{id}\"}\n    attributes: {note: text}\n",
            file: "o.yml")
        #expect(throws: MappingError.self) { try SampleScaler(mapping: composed, sample: sample) }
        // Through the scenario, the error names the mapping file, where the fix goes.
        let mappingFile = directory.path("composed.yml")
        try Data("name: orders\nelement: order\nentities:\n  order:\n    key: {compose: \"{note}-{id}\"}\n    attributes: {note: text}\n".utf8)
            .write(to: URL(fileURLWithPath: mappingFile))
        let error = #expect(throws: MappingError.self) {
            try MappedScenario.load(path: mappingFile, sample: sample).generate(scale: 2, seed: 1, to: directory.path("c.json"))
        }
        #expect(error?.file == mappingFile)
        #expect(error?.problem == .keyRepeatsInCopies(entity: "order"))
    }
}
