import Foundation
import ImportBenchCore
import ImportBenchPayload
import ImportBenchStore
import Testing

/// A collection written as an object keyed by id (`"events": {"138586341": {...}}`), as normalized
/// documents write them: each member an element, its name read as `@key` (alone, as an attribute, in
/// a composed key), a scalar member read whole as `.`; errors name the member.
@Suite("Collections keyed by id")
struct KeyedCollectionsTests {
    static let document = """
        {"areaNames": {"205705993": "Arrière-scène central"},
         "events": {"138586341": {"id": 138586341, "name": "30th Anniversary Tour", "logo": null},
                    "138586345": {"id": 138586345, "name": "Berliner Philharmoniker"},
                    "138586341": {"id": 138586341, "name": "30th Anniversary Tour (again)"}},
         "venueNames": {"PLEYEL_PLEYEL": "Salle Pleyel", "PLEYEL_GRAND": "Grande salle"}}
        """

    static let events = """
        name: events
        elements: events
        element: event
        entities:
          event:
            key: {compose: "ev-{@key}", column: ref}
            attributes:
              event_id: {type: integer, path: "@key"}
              name: text
              logo: text
        """

    static let venues = """
        name: venues
        elements: venueNames
        element: venue
        entities:
          venue:
            key: {path: "@key", column: code}
            attributes:
              name: {type: text, path: "."}
        """

    static func fixture(mapping: String, document: String = KeyedCollectionsTests.document) throws -> MappedPayloadFixture {
        try MappedPayloadFixture(mapping: mapping, payload: document)
    }

    @Test("members of an object are the elements: @key as the key, in a composed key and as an attribute")
    func keyedObjects() throws {
        let fixture = try Self.fixture(mapping: Self.events)
        let rows = try fixture.runAll(query: #"SELECT "ref", "event_id", "name", "logo" FROM "event" ORDER BY "ref""#)
        #expect(
            rows == [
                ["ev-138586341", 138_586_341, "30th Anniversary Tour (again)", nil],
                ["ev-138586345", 138_586_345, "Berliner Philharmoniker", nil],
            ])
    }

    @Test("a collection of scalars maps its member names and values", arguments: [1, 7, 1 << 20])
    func scalarMembers(chunkSize: Int) throws {
        let fixture = try Self.fixture(mapping: Self.venues)
        let reader = try MappedPayloadReader(path: fixture.payloadPath, mapping: try fixture.scenario.mapping, chunkSize: chunkSize)
        var read: [[StoreValue]] = []
        while let unit = try reader.nextUnit() {
            for occurrence in unit.occurrences { read.append([occurrence.key] + occurrence.attributes) }
        }
        #expect(read == [["PLEYEL_PLEYEL", "Salle Pleyel"], ["PLEYEL_GRAND", "Grande salle"]])
        #expect(try fixture.runAll(query: #"SELECT "code", "name" FROM "venue" ORDER BY "code""#).count == 2)
    }

    @Test(
        "errors name the member: a value of the wrong kind, a name that is not the number asked for",
        arguments: [
            (#"{"events": {"7": {"name": {"x": 1}}}}"#, #"events["7"].name"#, "a string"),
            (#"{"events": {"seven": {"name": "x"}}}"#, #"events["seven"]"#, "an integer as the member name (@key)"),
            (#"{"events": {"7": {"name": "x"}, "8" {"name": "y"}}}"#, nil, "':' after a member name"),
            (#"{"events": {"7": {"name": "x"}"#, nil, "end of file"),
        ] as [(String, String?, String)])
    func locatedErrors(document: String, path: String?, words: String) throws {
        let fixture = try Self.fixture(mapping: Self.events, document: document)
        let reader = try fixture.scenario.openReader(path: fixture.payloadPath)
        let error = #expect(throws: PayloadError.self) { while try reader.nextUnit() != nil {} }
        if let path { #expect(error?.path == path, "\(String(describing: error))") }
        #expect(error.map { "\($0)" }?.contains(words) == true, "\(String(describing: error))")
        #expect(error?.byteOffset != nil)
    }

    @Test("@key on a collection that is an array finds no name: the key is missing, located")
    func noNameInArrays() throws {
        let fixture = try Self.fixture(mapping: Self.venues, document: #"{"venueNames": ["Salle Pleyel"]}"#)
        let reader = try fixture.scenario.openReader(path: fixture.payloadPath)
        let error = #expect(throws: PayloadError.self) { while try reader.nextUnit() != nil {} }
        #expect(error?.path == "venueNames[0].@key", "\(String(describing: error))")
    }

    @Test("--from copies the members with names of their own: digits move by 10^12 as integer keys do, others take ~c")
    func scaled() throws {
        let fixture = try Self.fixture(mapping: Self.events)
        let scaled = fixture.directory.path("2x.json")
        try MappedScenario.load(path: fixture.mappingPath, sample: fixture.payloadPath)
            .generate(scale: 2, seed: 1, to: scaled)
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scaled))) as? [String: Any]
        let events = try #require(document?["events"] as? [String: Any])
        #expect(Set(events.keys) == ["138586341", "138586345", "1000138586341", "1000138586345"])
        #expect((document?["areaNames"] as? [String: String])?["205705993"] == "Arrière-scène central")
        let venues = try Self.fixture(mapping: Self.venues)
        let scaledVenues = venues.directory.path("2x.json")
        try MappedScenario.load(path: venues.mappingPath, sample: venues.payloadPath)
            .generate(scale: 2, seed: 1, to: scaledVenues)
        let names = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scaledVenues))) as? [String: Any]
        #expect(
            Set((names?["venueNames"] as? [String: String] ?? [:]).keys) == ["PLEYEL_PLEYEL", "PLEYEL_GRAND", "PLEYEL_PLEYEL~1", "PLEYEL_GRAND~1"])
    }
}

extension MappedPayloadFixture {
    /// Every strategy's run, each checked against the verifier; the rows of `query` in the ceiling's store.
    func runAll(query: String) throws -> [[StoreValue]] {
        let scenario = try scenario
        let expected = try ExpectedContent.build(
            schema: scenario.schema, reader: scenario.openReader(path: payloadPath), scratchPath: directory.path("expected.sqlite"))
        var rows: [[StoreValue]] = []
        for strategy in StrategyCatalog.builtIn.all {
            let store = directory.path("\(strategy.name).sqlite")
            let measurement = try ImportRun(
                scenario: scenario, payloadPath: payloadPath, method: strategy, databasePath: store,
                options: RunOptions(batchSize: .occurrences(1))
            ).execute()
            #expect(measurement.digest == expected.digest, "\(strategy.name)")
            if strategy.name == "ceiling" {
                let statement = try StoreConnection(path: store).prepare(query)
                while try statement.step() { rows.append(statement.row()) }
                statement.reset()
            }
        }
        return rows
    }
}
