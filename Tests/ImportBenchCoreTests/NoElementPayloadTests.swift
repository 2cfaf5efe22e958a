import Foundation
import Testing

@testable import ImportBenchCore
@testable import ImportBenchPayload
@testable import ImportBenchStrategies

/// A payload with no element (an empty JSON Lines file, blank lines only, a gzip of nothing, `[]`)
/// is refused where its elements ended, as an empty `.json` is: a benchmark of nothing would call
/// every strategy valid over zero records. Every reader holds the rule, built-in and mapped alike.
@Suite("A payload with no element")
struct NoElementPayloadTests {
    /// What `gzip -c /dev/null` writes: one member that inflates to nothing.
    static let gzipOfNothing: [UInt8] = [0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0x03, 0x03, 0, 0, 0, 0, 0, 0, 0, 0, 0]

    /// A payload file and what the refusal of it must say.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]
        let byteOffset: Int
        let path: String?
        let expected: PayloadExpectation
        let found: String
        var testDescription: String { name }
    }

    static let jsonLines = PayloadExpectation.atLeastOne(.jsonLine)

    static let productsCases: [Case] = [
        Case(name: "empty.jsonl", bytes: [], byteOffset: 0, path: nil, expected: jsonLines, found: "an empty file"),
        Case(
            name: "blank.jsonl", bytes: Array("\n  \n\t\r\n".utf8), byteOffset: 7, path: nil, expected: jsonLines,
            found: "an empty file (only blank lines)"),
        Case(
            name: "nothing.jsonl.gz", bytes: gzipOfNothing, byteOffset: 0, path: nil, expected: jsonLines, found: "an empty file (a gzip of nothing)"),
        Case(
            name: "nothing.json.gz", bytes: gzipOfNothing, byteOffset: 0, path: nil, expected: .openingBracket(of: nil),
            found: "an empty file (a gzip of nothing)"),
        Case(
            name: "empty-array.json", bytes: Array(" [ \n ] ".utf8), byteOffset: 5, path: nil,
            expected: .atLeastOne(.element(in: .array([]))), found: "an empty array"),
    ]

    /// Writes `bytes` as `name` in `directory` and returns its path.
    static func write(_ bytes: [UInt8], _ name: String, in directory: TemporaryDirectory) throws -> String {
        let path = directory.path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The error the reader throws at its first unit, and that it throws it again when asked again.
    static func refusal(of reader: any RecordReader, sourceLocation: SourceLocation = #_sourceLocation) throws -> PayloadError {
        let error = try #require(throws: PayloadError.self, sourceLocation: sourceLocation) { _ = try reader.nextUnit() }
        let again = #expect(throws: PayloadError.self, sourceLocation: sourceLocation) { _ = try reader.nextUnit() }
        #expect(again == error, "the refusal is final", sourceLocation: sourceLocation)
        // At the document's root: `bench run` refuses it before any strategy runs, as it does an empty `.json`.
        #expect(error.isAtDocumentRoot, "\(error)", sourceLocation: sourceLocation)
        return error
    }

    @Test(
        "products: an empty JSON Lines file, blank lines, a gzip of nothing and [] are refused, located, under either policy",
        arguments: productsCases)
    func products(_ testCase: Case) throws {
        try withTemporaryPayloadDirectory { directory in
            let path = try Self.write(testCase.bytes, testCase.name, in: directory)
            for policy in PayloadErrorPolicy.allCases {
                let error = try Self.refusal(of: ProductsScenario().openReader(path: path, onError: policy))
                #expect(
                    error
                        == PayloadError(
                            file: path, byteOffset: testCase.byteOffset, path: testCase.path, expected: testCase.expected, found: testCase.found))
            }
        }
    }

    @Test("a gzip of blank lines says both")
    func gzipOfBlankLines() throws {
        try withTemporaryPayloadDirectory { directory in
            let plain = try Self.write(Array("\n\n\n".utf8), "blank.jsonl", in: directory)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["gzip", "-k", plain]
            try process.run()
            process.waitUntilExit()
            try #require(process.terminationStatus == 0)
            let error = try Self.refusal(of: ChatScenario().openReader(path: plain + ".gz"))
            #expect(error.byteOffset == 3)
            #expect(error.expected == Self.jsonLines)
            #expect(error.found == "an empty file (only blank lines, gzip-compressed)")
        }
    }

    @Test(
        "chat, quakes: an empty collection is refused where it closes, naming it",
        arguments: [
            ("chat", #"{"channels": [ ], "next": null}"#, 15, "channels"),
            ("quakes", #"{"type": "FeatureCollection", "features": []}"#, 43, "features"),
        ])
    func emptyCollection(scenario: String, payload: String, offset: Int, path: String) throws {
        try withTemporaryPayloadDirectory { directory in
            let file = try Self.write(Array(payload.utf8), "payload.json", in: directory)
            let reader = try #require(ScenarioRegistry.scenario(named: scenario)).openReader(path: file)
            #expect(
                try Self.refusal(of: reader)
                    == PayloadError(
                        file: file, byteOffset: offset, path: path, expected: .atLeastOne(.element(in: .array([path]))), found: "an empty array"))
        }
    }

    @Test("an element that every policy skips is not a payload of nothing: the run says every record was skipped")
    func skippedIsNotEmpty() throws {
        try withTemporaryPayloadDirectory { directory in
            let path = try Self.write(Array("{\"x\": 1}\n\n".utf8), "p.jsonl", in: directory)
            let reader = try ProductsScenario().openReader(path: path, onError: .skip)
            #expect(try reader.nextUnit() == nil)
            #expect(reader.skippedRecords == ["malformed product": 1])
        }
    }

    @Test("a benchmark of a payload of blank lines ends in the refusal, no strategy importing it, none valid")
    func runRefuses() throws {
        try withTemporaryPayloadDirectory { directory in
            let path = try Self.write(Array("\n\n".utf8), "blank.jsonl", in: directory)
            let configuration = BenchmarkConfiguration(
                spec: RunSpec(scenario: .builtIn("products"), payload: .file(path)), strategies: [NaiveStrategy.self])
            let error = try #require(throws: RunError.self) { _ = try Benchmark(configuration: configuration).run() }
            guard case .badPayload(let report) = error else {
                Issue.record("expected a bad payload, got \(error)")
                return
            }
            let cause = try #require(report.cause as? PayloadError)
            #expect(cause == PayloadError(file: path, byteOffset: 2, path: nil, expected: Self.jsonLines, found: "an empty file (only blank lines)"))
            for run in report.runs {
                if case .imported(let strategy) = run { Issue.record("\(strategy) imported a payload of nothing") }
            }
        }
    }

    // MARK: Mapped payloads

    static let orders = """
        name: orders
        elements: orders
        element: order
        entities:
          order: {key: id, attributes: {total: real}}
        """

    @Test(
        "a mapped payload: an empty array, an empty object keyed by id, an empty JSON Lines file",
        arguments: [
            (#"{"orders": []}"#, "payload.json", 12, "orders", PayloadExpectation.atLeastOne(.element(in: .array(["orders"]))), "an empty array"),
            (#"{"orders": {}}"#, "payload.json", 12, "orders", .atLeastOne(.element(in: .object(["orders"]))), "an empty object"),
            ("", "payload.jsonl", 0, nil, jsonLines, "an empty file"),
        ])
    func mapped(payload: String, name: String, offset: Int, path: String?, expected: PayloadExpectation, found: String) throws {
        let fixture = try MappedPayloadFixture(mapping: Self.orders, payload: payload, payloadName: name)
        let error = try Self.refusal(of: fixture.scenario.openReader(path: fixture.payloadPath))
        #expect(error == PayloadError(file: fixture.payloadPath, byteOffset: offset, path: path, expected: expected, found: found))
    }

    @Test("a header row and no row is refused, saying so")
    func headerRowAlone() throws {
        let fixture = try MappedPayloadFixture(mapping: ArrayRowsTests.mapping, payload: #"{"rows": [["asin", "brand", "rating", "parent"]]}"#)
        let error = try Self.refusal(of: fixture.scenario.openReader(path: fixture.payloadPath))
        #expect(error.expected == .atLeastOne(.rowAfterHeaderRow))
        #expect(error.found == "the header row alone")
        #expect(error.byteOffset == 47)
    }

    static let collections = """
        name: catalog
        collections:
          - {path: venues, entity: venue}
          - {path: events, entity: event}
        entities:
          venue: {key: "@key", attributes: {name: {type: text, path: "."}}}
          event: {key: id, to_one: {venue: {entity: venue, key: venue}}}
        """

    @Test(
        "several collections: refused only when every one is empty, naming them all",
        arguments: [
            #"{"events": [], "venues": {}}"#, #"{"a": {"events": []}, "b": {"venues": {}}}"#,
        ])
    func everyCollectionEmpty(payload: String) throws {
        let nested = payload.contains("\"a\"")
        let mapping =
            nested
            ? Self.collections.replacingOccurrences(of: "path: venues", with: "path: b.venues")
                .replacingOccurrences(of: "path: events", with: "path: a.events") : Self.collections
        let fixture = try MappedPayloadFixture(mapping: mapping, payload: payload)
        let error = try Self.refusal(of: fixture.scenario.openReader(path: fixture.payloadPath))
        let names = nested ? ["b.venues", "a.events"] : ["venues", "events"]
        #expect(error.expected == .atLeastOne(.elementInCollections(names)))
        #expect(error.found == "every one of them empty")
        #expect(error.file == fixture.payloadPath && error.byteOffset != nil)
        // One collection with an element is a payload: the other may be empty.
        let one = try MappedPayloadFixture(
            mapping: mapping, payload: payload.replacingOccurrences(of: "{}", with: #"{"V1": "Hall"}"#))
        let reader = try one.scenario.openReader(path: one.payloadPath)
        #expect(try reader.nextUnit() != nil)
        #expect(try reader.nextUnit() == nil)
    }

    @Test("generate --from a sample of nothing is refused and writes nothing")
    func emptySample() throws {
        let fixture = try MappedPayloadFixture(mapping: Self.orders, payload: #"{"orders": []}"#)
        let out = fixture.directory.path("2x.json")
        let scaler = try SampleScaler(mapping: try fixture.scenario.mapping, sample: fixture.payloadPath)
        let error = #expect(throws: PayloadError.self) { try scaler.write(scale: 2, to: out) }
        #expect(
            error
                == PayloadError(
                    file: fixture.payloadPath, byteOffset: 12, path: "orders", expected: .atLeastOne(.element(in: .array(["orders"]))),
                    found: "an empty array"))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    // MARK: Transit

    @Test("a GTFS feed of header lines alone is refused; one row anywhere is a payload")
    func transitHeadersAlone() throws {
        try withTemporaryPayloadDirectory { directory in
            let feed = directory.path("feed")
            try FileManager.default.createDirectory(atPath: feed, withIntermediateDirectories: false)
            try Data("stop_id,stop_name\n".utf8).write(to: URL(fileURLWithPath: feed + "/stops.txt"))
            try Data("trip_id,route_id\n".utf8).write(to: URL(fileURLWithPath: feed + "/trips.txt"))
            try Data("trip_id,stop_id,stop_sequence\n".utf8).write(to: URL(fileURLWithPath: feed + "/stop_times.txt"))
            let error = try Self.refusal(of: TransitScenario().openReader(path: feed))
            #expect(
                error
                    == PayloadError(
                        file: feed, byteOffset: nil, path: nil,
                        expected: .atLeastOne(.row(inFiles: ["stops.txt", "trips.txt", "stop_times.txt"])), found: "a header line alone in each"))
            try Data("stop_id,stop_name\nS1,One\n".utf8).write(to: URL(fileURLWithPath: feed + "/stops.txt"))
            let reader = try TransitScenario().openReader(path: feed)
            #expect(try reader.nextUnit() != nil)
            #expect(try reader.nextUnit() == nil)
        }
    }
}
