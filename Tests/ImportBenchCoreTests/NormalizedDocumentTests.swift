import Foundation
import ImportBenchCore
import ImportBenchPayload
import ImportBenchStore
import Testing

/// A normalized document: several collections in one file, some objects keyed by id, referring to
/// one another by key, read in the mapping's order (targets first) whatever the file's order.
@Suite("Normalized documents")
struct NormalizedDocumentTests {
    /// As a ticketing API writes it (the shape of citm_catalog.json): the venues come last in the
    /// file, though the performances refer to them.
    static let document = """
        {"areaNames": {"205705993": "Arrière-scène central"},
         "events": {"138586341": {"id": 138586341, "name": "30th Anniversary Tour"},
                    "138586345": {"id": 138586345, "name": "Berliner Philharmoniker"}},
         "performances": [
           {"id": 339887544, "eventId": 138586341, "start": 1372701600000, "venueCode": "PLEYEL_PLEYEL"},
           {"id": 339420802, "eventId": 138586345, "start": 1382378400000, "venueCode": "PLEYEL_PLEYEL"},
           {"id": 339420805, "eventId": 138586345, "start": 1382464800000, "venueCode": null}],
         "venueNames": {"PLEYEL_PLEYEL": "Salle Pleyel"}}
        """

    static let mapping = """
        name: catalog
        summary: events, performances and venues of one normalized document
        collections:
          - {path: venueNames, entity: venue}
          - {path: events, entity: event}
          - {path: performances, entity: performance}
        entities:
          venue:
            key: {path: "@key", column: code}
            attributes:
              name: {type: text, path: "."}
          event:
            key: "@key"
            attributes: {name: text}
          performance:
            key: id
            attributes: {start: integer}
            to_one:
              event: {entity: event, key: eventId}
              venue: {entity: venue, key: venueCode}
        """

    static func fixture(
        mapping: String = NormalizedDocumentTests.mapping, document: String = NormalizedDocumentTests.document
    ) throws
        -> MappedPayloadFixture
    {
        try MappedPayloadFixture(mapping: mapping, payload: document, payloadName: "catalog.json")
    }

    @Test("every strategy reads the collections targets first, in one run, valid", arguments: [BatchSize.occurrences(1), .all])
    func catalog(batchSize: BatchSize) throws {
        let fixture = try Self.fixture()
        let scenario = try fixture.scenario
        #expect(scenario.mapping.collections.map { scenario.schema.entities[$0.entity].name } == ["venue", "event", "performance"])
        let expected = try ExpectedContent.build(
            schema: scenario.schema, reader: scenario.openReader(path: fixture.payloadPath), scratchPath: fixture.directory.path("expected.sqlite"))
        #expect(expected.occurrences == 6 && expected.uniqueObjects == 6)
        for strategy in StrategyCatalog.builtIn.all {
            let store = fixture.directory.path("\(strategy.name)-\(batchSize).sqlite")
            let measurement = try ImportRun(
                scenario: scenario, payloadPath: fixture.payloadPath, method: strategy, databasePath: store,
                options: RunOptions(batchSize: batchSize)
            ).execute()
            #expect(measurement.digest == expected.digest, "\(strategy.name)")
            guard strategy.name == "naive" else { continue }
            let rows = try StoreConnection(path: store).prepare(
                #"SELECT p."id", e."name", v."name" FROM "performance" p JOIN "event" e ON e."pk" = p."event_pk" "#
                    + #"LEFT JOIN "venue" v ON v."pk" = p."venue_pk" ORDER BY p."id""#)
            var read: [[StoreValue]] = []
            while try rows.step() { read.append(rows.row()) }
            rows.reset()
            #expect(
                read == [
                    ["339420802", "Berliner Philharmoniker", "Salle Pleyel"],
                    ["339420805", "Berliner Philharmoniker", nil],
                    ["339887544", "30th Anniversary Tour", "Salle Pleyel"],
                ])
        }
    }

    @Test("the payload's hash is the file's, read once, whatever the collections")
    func hashOfTheFile() throws {
        let fixture = try Self.fixture()
        let scenario = try fixture.scenario
        let hasher = PayloadHasher()
        let reader = try scenario.openReader(path: fixture.payloadPath, reading: PayloadReading(hasher: hasher))
        while try reader.nextUnit() != nil {}
        let plain = PayloadHasher()
        plain.update(try Data(contentsOf: URL(fileURLWithPath: fixture.payloadPath)).withUnsafeBytes { $0 })
        #expect(hasher.digest == plain.digest)
    }

    @Test("a collection missing from the document, or a mapping mixing elements with collections, is a located error")
    func errors() throws {
        let missing = try Self.fixture(document: #"{"events": {}, "performances": []}"#)
        let reader = try missing.scenario.openReader(path: missing.payloadPath)
        let error = #expect(throws: PayloadError.self) { while try reader.nextUnit() != nil {} }
        #expect(error.map { "\($0)" }?.contains("venueNames") == true, "\(String(describing: error))")

        let mixed = NormalizedDocumentTests.mapping.replacingOccurrences(of: "collections:\n", with: "element: venue\ncollections:\n")
        let refused = #expect(throws: MappingError.self) { try PayloadMapping(yaml: mixed, file: "catalog.yml") }
        #expect(refused?.problem == .singleCollectionKey("element"))
        let unknown = NormalizedDocumentTests.mapping.replacingOccurrences(of: "entity: venue}", with: "entity: place}")
        let named = #expect(throws: MappingError.self) { try PayloadMapping(yaml: unknown, file: "catalog.yml") }
        #expect(named?.problem == .undeclaredElement("place", collection: "venueNames", declared: ["venue", "event", "performance"]))
    }

    @Test(
        "--from copies every collection where it lies, references following their targets; a shared entity's collection once",
        arguments: [false, true])
    func scaled(venuesShared: Bool) throws {
        let mapping = venuesShared ? Self.mapping + "\nshared: [venue]\n" : Self.mapping
        let fixture = try Self.fixture(mapping: mapping)
        let scenario = try MappedScenario.load(path: fixture.mappingPath, sample: fixture.payloadPath)
        let scaled = fixture.directory.path("3x.json")
        try scenario.generate(scale: 3, seed: 1, to: scaled)
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scaled))) as? [String: Any]
        #expect((document?["performances"] as? [Any])?.count == 9)
        #expect((document?["events"] as? [String: Any])?.count == 6)
        #expect((document?["venueNames"] as? [String: Any])?.count == (venuesShared ? 1 : 3))
        let expected = try ExpectedContent.build(
            schema: scenario.schema, reader: scenario.openReader(path: scaled), scratchPath: fixture.directory.path("expected.sqlite"))
        #expect(expected.uniqueObjects == (venuesShared ? 16 : 18))
        for name in ["naive", "upsert", "ceiling"] {
            let measurement = try ImportRun(
                scenario: scenario, payloadPath: scaled, method: try #require(StrategyCatalog.builtIn.strategy(named: name)),
                databasePath: fixture.directory.path("\(name).sqlite"), options: RunOptions(batchSize: .occurrences(2))
            ).execute()
            #expect(measurement.digest == expected.digest, "\(name)")
        }
    }

    /// The catalog's members in another order, written as their own text.
    static func document(order: [String]) -> String {
        let members = [
            "areaNames": #""areaNames": {"205705993": "Arrière-scène central"}"#,
            "events": #""events": {"138586341": {"name": "30th Anniversary Tour"}, "138586345": {"name": "Berliner Philharmoniker"}}"#,
            "performances":
                #""performances": [{"id": 1, "eventId": 138586341, "start": 10, "venueCode": "P"}, {"id": 2, "eventId": 138586345, "start": 20, "venueCode": null}]"#,
            "venueNames": #""venueNames": {"P": "Salle Pleyel", "G": "Gaveau"}"#,
        ]
        return "{" + order.compactMap { members[$0] }.joined(separator: ",\n ") + "}"
    }

    /// The spool files in TMPDIR, by name.
    static func spoolFiles() throws -> Set<String> {
        Set(
            try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path).filter {
                $0.hasPrefix("importbench-spool-")
            })
    }

    static let orders: [[String]] = [
        ["areaNames", "events", "performances", "venueNames"], ["venueNames", "events", "performances", "areaNames"],
        ["performances", "areaNames", "venueNames", "events"], ["events", "venueNames", "performances"],
    ]

    @Test(
        "one pass in any file order: the same occurrences, in the mapping's order, in any chunk size",
        arguments: orders, [1, 5, 1 << 20])
    func anyOrder(order: [String], chunkSize: Int) throws {
        let fixture = try Self.fixture(document: Self.document(order: order))
        let scenario = try fixture.scenario
        let reader = try MappedPayloadReader(path: fixture.payloadPath, mapping: scenario.mapping, chunkSize: chunkSize)
        var read: [String] = []
        while let unit = try reader.nextUnit() {
            for occurrence in unit.occurrences { read.append("\(scenario.schema.entities[occurrence.entity].name) \(occurrence.key)") }
        }
        #expect(read == ["venue 'P'", "venue 'G'", "event '138586341'", "event '138586345'", "performance '1'", "performance '2'"])
        // What was set aside left no file behind. A spool shows for an instant between mkstemp and
        // unlink, so one of a test running beside this may be listed: only a file still there a
        // moment later was left.
        var spools = try Self.spoolFiles()
        if !spools.isEmpty {
            Thread.sleep(forTimeInterval: 0.5)
            spools.formIntersection(try Self.spoolFiles())
        }
        #expect(spools.isEmpty, "left in TMPDIR: \(spools.sorted())")
        let expected = try ExpectedContent.build(
            schema: scenario.schema, reader: scenario.openReader(path: fixture.payloadPath), scratchPath: fixture.directory.path("expected.sqlite"))
        let measurement = try ImportRun(
            scenario: scenario, payloadPath: fixture.payloadPath, method: try #require(StrategyCatalog.builtIn.strategy(named: "prewarm")),
            databasePath: fixture.directory.path("store.sqlite"), options: RunOptions(batchSize: .occurrences(2))
        ).execute()
        #expect(measurement.digest == expected.digest)
    }

    @Test(
        "an error in a collection set aside names its place in the file",
        arguments: [
            ["performances", "venueNames", "events"], ["venueNames", "events", "performances"],
        ])
    func errorsInSetAside(order: [String]) throws {
        let document = Self.document(order: order).replacingOccurrences(of: #""start": 20"#, with: #""start": "soon""#)
        let fixture = try Self.fixture(document: document)
        let reader = try fixture.scenario.openReader(path: fixture.payloadPath)
        let error = #expect(throws: PayloadError.self) { while try reader.nextUnit() != nil {} }
        #expect(error?.path == "performances[1].start", "\(String(describing: error))")
        let offset = try #require(document.utf8.firstRange(of: #""soon""#.utf8)).lowerBound
        #expect(error?.byteOffset == document.utf8.distance(from: document.utf8.startIndex, to: offset))
    }

    @Test("collections under different objects are read one after another, each by a reader of its own")
    func differentParents() throws {
        let mapping = Self.mapping
            .replacingOccurrences(of: "{path: venueNames, entity: venue}", with: "{path: places.venueNames, entity: venue}")
        let document =
            #"{"data": {"events": {"7": {"name": "E"}}, "performances": [{"id": 1, "eventId": 7, "venueCode": "P"}]}, "places": {"venueNames": {"P": "Pleyel"}}}"#
        let fixture = try Self.fixture(
            mapping: mapping.replacingOccurrences(of: "{path: events,", with: "{path: data.events,")
                .replacingOccurrences(of: "{path: performances,", with: "{path: data.performances,"),
            document: document)
        let scenario = try fixture.scenario
        let expected = try ExpectedContent.build(
            schema: scenario.schema, reader: scenario.openReader(path: fixture.payloadPath), scratchPath: fixture.directory.path("expected.sqlite"))
        #expect(expected.uniqueObjects == 3)
        let measurement = try ImportRun(
            scenario: scenario, payloadPath: fixture.payloadPath, method: try #require(StrategyCatalog.builtIn.strategy(named: "naive")),
            databasePath: fixture.directory.path("store.sqlite"), options: RunOptions(batchSize: .occurrences(1))
        ).execute()
        #expect(measurement.digest == expected.digest)
    }
}
