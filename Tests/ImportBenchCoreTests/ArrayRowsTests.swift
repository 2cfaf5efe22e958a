import Foundation
import ImportBenchCore
import ImportBenchPayload
import ImportBenchStore
import Testing

/// Rows written as arrays after a header row, as compact exports write them, read by position:
/// the key, attributes and a reference by key alike.
@Suite("Rows as arrays")
struct ArrayRowsTests {
    static let mapping = """
        name: rows
        elements: rows
        element: product
        header_row: true
        entities:
          product:
            key: {path: "[0]", column: asin}
            attributes:
              brand: {type: text, path: "[1]"}
              rating: {type: real, path: "[2]"}
            to_one:
              parent: {entity: product, key: "[3]"}
        """

    /// B1 again at the end, short of its parent column: its rating changes, its parent stays.
    static let payload = """
        {"rows": [["asin", "brand", "rating", "parent"],
                  ["B1", "Motorola", 2.9, null],
                  ["B2", "Nokia", 4.1, "B1"],
                  ["B1", "Motorola", 3.0]]}
        """

    static func fixture(payload: String = ArrayRowsTests.payload) throws -> MappedPayloadFixture {
        try MappedPayloadFixture(mapping: mapping, payload: payload, payloadName: "rows.json")
    }

    @Test("every strategy reads the rows after the header by position, valid, the last row winning", arguments: StrategyCatalog.builtIn.names)
    func rows(strategy: String) throws {
        let fixture = try Self.fixture()
        let expected = try ExpectedContent.build(
            schema: try fixture.scenario.schema, reader: try fixture.scenario.openReader(path: fixture.payloadPath),
            scratchPath: fixture.directory.path("expected.sqlite"))
        #expect(expected.occurrences == 3 && expected.uniqueObjects == 2)
        let store = fixture.directory.path("store.sqlite")
        let measurement = try ImportRun(
            scenario: try fixture.scenario, payloadPath: fixture.payloadPath,
            method: try #require(StrategyCatalog.builtIn.strategy(named: strategy)), databasePath: store,
            options: RunOptions(batchSize: .occurrences(1))
        ).execute()
        #expect(measurement.digest == expected.digest)
        let rows = try StoreConnection(path: store).prepare(
            #"SELECT p."asin", p."brand", p."rating", parent."asin" FROM "product" p LEFT JOIN "product" parent ON parent."pk" = p."parent_pk" ORDER BY p."asin""#
        )
        var read: [[StoreValue]] = []
        while try rows.step() { read.append(rows.row()) }
        rows.reset()
        #expect(read == [["B1", "Motorola", .real(3.0), nil], ["B2", "Nokia", .real(4.1), "B1"]])
    }

    @Test(
        "a header that is not an array of names, or a row that is not an array, is a located error",
        arguments: [
            (#"{"rows": [["asin", 3], ["B1", "M", 1.0]]}"#, "rows[0][1]", "a column name"),
            (#"{"rows": [{"asin": "x"}, ["B1", "M", 1.0]]}"#, "rows[0]", "a header row"),
            (#"{"rows": [["asin"], {"asin": "B1"}]}"#, "rows[1]", "an array (a row read by position)"),
        ])
    func badRows(payload: String, path: String, expected: String) throws {
        let fixture = try Self.fixture(payload: payload)
        let reader = try fixture.scenario.openReader(path: fixture.payloadPath)
        let error = #expect(throws: PayloadError.self) { while try reader.nextUnit() != nil {} }
        #expect(error?.path == path, "\(String(describing: error))")
        #expect(error.map { "\($0)" }?.contains(expected) == true, "\(String(describing: error))")
        #expect(error?.byteOffset != nil)
    }

    @Test("--from copies the rows after one header row, their keys and references made each copy's own")
    func scaled() throws {
        let fixture = try Self.fixture()
        let scenario = try MappedScenario.load(path: fixture.mappingPath, sample: fixture.payloadPath)
        let scaled = fixture.directory.path("2x.json")
        try scenario.generate(scale: 2, seed: 1, to: scaled)
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scaled))) as? [String: Any]
        let rows = try #require(document?["rows"] as? [[Any]])
        #expect(rows.count == 7)
        #expect(rows[0] as? [String] == ["asin", "brand", "rating", "parent"])
        #expect(rows[5].first as? String == "B2~1" && rows[5].last as? String == "B1~1")
        let expected = try ExpectedContent.build(
            schema: scenario.schema, reader: scenario.openReader(path: scaled), scratchPath: fixture.directory.path("expected.sqlite"))
        #expect(expected.uniqueObjects == 4 && expected.occurrences == 6)
    }

    @Test("a bad header row of JSON Lines is located by line and column")
    func headerInLines() throws {
        let fixture = try MappedPayloadFixture(
            mapping: Self.mapping.replacingOccurrences(of: "elements: rows\n", with: "format: json-lines\n"),
            payload: "[\"asin\", 5]\n[\"B1\", \"M\", 1.0]\n", payloadName: "rows.txt")
        let reader = try fixture.scenario.openReader(path: fixture.payloadPath)
        let error = #expect(throws: PayloadError.self) { while try reader.nextUnit() != nil {} }
        #expect(error?.line == 1 && error?.column == 10, "\(String(describing: error))")
    }
}
