import Foundation
import ImportBenchCore
import ImportBenchPayload
import ImportBenchStore
import Testing

@Suite("products scenario")
struct ProductsScenarioTests {
    let scenario = ProductsScenario()

    private func occurrences(in json: String, directory: TemporaryDirectory) throws -> [RecordOccurrence] {
        let path = directory.path("p.json")
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        let reader = try scenario.openReader(path: path)
        var occurrences: [RecordOccurrence] = []
        while let unit = try reader.nextUnit() { occurrences += unit.occurrences }
        return occurrences
    }

    @Test("a hand-written catalogue: unknown fields ignored, missing and null fields NULL, booleans as 0/1")
    func handWritten() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let read = try occurrences(
            in: """
                [{"serialCode":"SN-1","name":"Kettle","price":19.5,"stock":3,"active":true,"warehouse":{"bin":"A1"}},
                 {"serialCode":"SN-2","price":7,"active":false,"description":null}]
                """, directory: directory)
        let names = scenario.schema.entities[0].attributes.map(\.name)
        func value(_ occurrence: RecordOccurrence, _ name: String) -> StoreValue {
            occurrence.attributes[names.firstIndex(of: name) ?? 0]
        }
        #expect(read.map(\.key) == [.text("SN-1"), .text("SN-2")])
        #expect(value(read[0], "name") == .text("Kettle"))
        #expect(value(read[0], "price") == .real(19.5))
        #expect(value(read[0], "active") == .integer(1))
        #expect(value(read[0], "brand") == .null)
        #expect(value(read[1], "price") == .real(7))
        #expect(value(read[1], "active") == .integer(0))
        #expect(value(read[1], "description") == .null)
    }

    @Test("a missing serial code names the record and its offset")
    func missingSerialCode() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let error = #expect(throws: PayloadError.self) {
            _ = try occurrences(in: #"[{"serialCode":"SN-1"}, {"name":"no code"}]"#, directory: directory)
        }
        #expect(error?.path?.hasPrefix("[1]") == true)
        #expect(error?.byteOffset == 24)
    }

    @Test(
        "the import's path, nextUnit and the generic reader read the same: members in any order, an escaped key, a repeated key; a null serial code or a key repeated with another value skipped"
    )
    func bothPathsAgree() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("p.json")
        try Data(
            #"""
            [{"description":"last first","active":true,"stock":2,"price":3.5,"serialCode":"SN-1"},
             {"serial\u0043ode":"SN-2","na\u006de":"escaped"},
             {"serialCode":null,"name":"no code"},
             {"serialCode":"SN-3","brand":"Acme","brand":"Acme","currency":"EUR"},
             {"serialCode":"SN-4","brand":"Acme","brand":"Globex"}]
            """#.utf8
        ).write(to: URL(fileURLWithPath: path))
        let reader = try scenario.openReader(path: path, onError: .skip)
        var owned: [RecordOccurrence] = []
        while let unit = try reader.nextUnit() { owned += unit.occurrences }
        #expect(owned.map(\.key) == [.text("SN-1"), .text("SN-2"), .text("SN-3")])
        // A key repeated with the same value is one value; with another, the product is left out.
        #expect(reader.skippedErrors.map(\.path) == ["[2].serialCode", "[4].brand"])
        let names = scenario.schema.entities[0].attributes.map(\.name)
        let name = try #require(names.firstIndex(of: "name"))
        let brand = try #require(names.firstIndex(of: "brand"))
        #expect(owned[0].attributes[try #require(names.firstIndex(of: "price"))] == .real(3.5))
        #expect(owned[1].attributes[name] == .text("escaped"))
        #expect(owned[2].attributes[brand] == .text("Acme"))

        let batcher = RecordBatcher(reader: try scenario.openReader(path: path, onError: .skip), batchSize: .all, schema: scenario.schema)
        let batch = try #require(try batcher.next())
        #expect(batch.occurrences.map { $0.key.storeValue } == owned.map(\.key))
        #expect(batch.occurrences.map { $0.attributes.map(\.storeValue) } == owned.map(\.attributes))

        // The generic reader, which shares none of this reader's code past the tape, reads the same.
        let mapping = BuiltInMappings.path("products")
        let generic = try MappedScenario.load(path: mapping).openReader(path: path, onError: .skip)
        var mapped: [RecordOccurrence] = []
        while let unit = try generic.nextUnit() { mapped += unit.occurrences }
        #expect(mapped.map(\.key) == owned.map(\.key))
        #expect(mapped.map(\.attributes) == owned.map(\.attributes))
    }

    @Test("the generator is deterministic, with unique serial codes, and every strategy imports it validly", arguments: StrategyCatalog.builtIn.names)
    func generatedImport(strategy: String) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let outcome = try Benchmark(
            configuration: BenchmarkConfiguration(
                spec: RunSpec(
                    scenario: scenario.source, payload: .generated(scale: try #require(Scale(factor: 0.05)), seed: 2),
                    options: RunOptions(batchSize: .occurrences(128))),
                strategies: [try #require(StrategyCatalog.builtIn.strategy(named: strategy))])
        ).run()
        #expect(outcome.expected.occurrences == 500)
        #expect(outcome.expected.uniqueObjects == 500)
        for result in outcome.results { #expect(result.valid, "\(result.strategy): \(result.differences)") }
        let a = directory.path("a.json")
        let b = directory.path("b.json")
        try scenario.generate(scale: 0.05, seed: 2, to: a)
        try scenario.generate(scale: 0.05, seed: 2, to: b)
        #expect(try Data(contentsOf: URL(fileURLWithPath: a)) == Data(contentsOf: URL(fileURLWithPath: b)))
    }
}
