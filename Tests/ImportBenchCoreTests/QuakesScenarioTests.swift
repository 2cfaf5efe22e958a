import Foundation
import ImportBenchCore
import ImportBenchPayload
import ImportBenchStore
import ImportBenchStrategies
import Testing

@Suite("quakes scenario")
struct QuakesScenarioTests {
    let scenario = QuakesScenario()

    private func units(at path: String) throws -> [RecordUnit] {
        let reader = try scenario.openReader(path: path)
        var units: [RecordUnit] = []
        while let unit = try reader.nextUnit() { units.append(unit) }
        return units
    }

    @Test("the generator is deterministic per seed and scale, with unique ids")
    func generatorIsDeterministic() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let paths = ["a", "b", "c"].map { directory.path("\($0).json") }
        try scenario.generate(scale: 0.05, seed: 4, to: paths[0])
        try scenario.generate(scale: 0.05, seed: 4, to: paths[1])
        try scenario.generate(scale: 0.05, seed: 5, to: paths[2])
        let bytes = try paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        #expect(bytes[0] == bytes[1])
        #expect(bytes[0] != bytes[2])
        let read = try units(at: paths[0])
        #expect(read.count == 500)
        #expect(Set(read.map { $0.occurrences[0].key }).count == 500)
        let json = try JSONSerialization.jsonObject(with: bytes[0]) as? [String: Any]
        #expect((json?["features"] as? [Any])?.count == 500)
    }

    @Test("a generated feature reads back with every property in its column")
    func readsGeneratedFeature() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("q.json")
        try scenario.generate(scale: 0.01, seed: 1, to: path)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let features = try #require(json["features"] as? [[String: Any]])
        let first = try #require(features.first)
        let properties = try #require(first["properties"] as? [String: Any])
        let occurrence = try #require(try units(at: path).first?.occurrences.first)
        let names = scenario.schema.entities[0].attributes.map(\.name)
        #expect(occurrence.key == .text(try #require(first["id"] as? String)))
        #expect(occurrence.attributes[names.firstIndex(of: "place") ?? -1] == .text(try #require(properties["place"] as? String)))
        #expect(occurrence.attributes[names.firstIndex(of: "time") ?? -1] == .integer(Int64(try #require(properties["time"] as? Int))))
        let coordinates = try #require((first["geometry"] as? [String: Any])?["coordinates"] as? [Double])
        #expect(occurrence.attributes.suffix(3).map { $0 } == coordinates.map { StoreValue.real($0) })
    }

    @Test(
        "the real USGS feeds read completely, nulls and whole-number magnitudes included",
        .enabled(if: SharedDatasets.available, SharedDatasets.skipReason),
        arguments: [("usgs/all_day-2014-04-15.geojson", 146), ("usgs/all_week-2014-04-15.geojson", 1513)])
    func realFeeds(file: String, count: Int) throws {
        let read = try units(at: SharedDatasets.path(file))
        #expect(read.count == count)
        let names = scenario.schema.entities[0].attributes.map(\.name)
        let mag = try #require(names.firstIndex(of: "mag"))
        let felt = try #require(names.firstIndex(of: "felt"))
        #expect(read.allSatisfy { if case .real = $0.occurrences[0].attributes[mag] { return true } else { return false } })
        #expect(read.contains { $0.occurrences[0].attributes[felt] == .null })
    }

    @Test("without an id (absent or null) the key is net + code, through the reader and the mapping alike; with neither, the error names the id")
    func keyWithoutID() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("mirror.geojson")
        try Data(
            """
            {"type": "FeatureCollection", "features": [
              {"id": "nc1", "properties": {"net": "nc", "code": "9"}},
              {"properties": {"net": "nc", "code": "2"}},
              {"id": null, "properties": {"net": "ak", "code": "77"}},
              {"properties": {"code": "5"}}
            ]}
            """.utf8
        ).write(to: URL(fileURLWithPath: path))
        let mapping = BuiltInMappings.path("quakes")
        for source in [scenario as any Scenario, try MappedScenario.load(path: mapping)] {
            let reader = try source.openReader(path: path, onError: .skip)
            var keys: [StoreValue] = []
            while let unit = try reader.nextUnit() { keys += unit.occurrences.map(\.key) }
            #expect(keys == [.text("nc1"), .text("nc2"), .text("ak77")], "\(source.name)")
            #expect(reader.skippedErrors.first?.path == "features[3].id", "\(source.name): \(reader.skippedErrors)")
        }
        // The builder's path, as the import reads it.
        let batcher = RecordBatcher(reader: try scenario.openReader(path: path, onError: .skip), batchSize: .all, schema: scenario.schema)
        let batch = try #require(try batcher.next())
        #expect(batch.occurrences.map { $0.key.storeValue } == [.text("nc1"), .text("nc2"), .text("ak77")])
    }

    @Test(
        "a mirror of the feed without feature ids imports as the feed does: the key is made of net and code, as USGS makes the id",
        .enabled(if: SharedDatasets.available, SharedDatasets.skipReason))
    func mirrorWithoutIDs() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let original = SharedDatasets.path("usgs/all_day-2014-04-15.geojson")
        var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: original))) as? [String: Any])
        let features = try #require(document["features"] as? [[String: Any]])
        document["features"] = features.map { feature in feature.filter { $0.key != "id" } }
        let mirror = directory.path("mirror.geojson")
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: mirror))

        func digests(_ reference: ScenarioSource, _ payload: String) throws -> Set<String> {
            let outcome = try Benchmark(
                configuration: BenchmarkConfiguration(
                    spec: RunSpec(scenario: reference, payload: .file(payload)), strategies: StrategyCatalog.builtIn.all)
            ).run()
            for result in outcome.results { #expect(result.valid, "\(result.strategy): \(result.differences)") }
            #expect(outcome.expected.uniqueObjects == 146)
            return Set(outcome.results.map(\.digest))
        }
        let expected = try digests(scenario.source, original)
        #expect(expected.count == 1)
        #expect(try digests(scenario.source, mirror) == expected)
        let mapping = BuiltInMappings.path("quakes")
        #expect(try digests(.mapping(mapping, sample: nil), mirror) == expected)
        // A key made of values would be the same in every copy: --from refuses, naming the first feature.
        let scaler = try SampleScaler(mapping: try MappedScenario.load(path: mapping).mapping, sample: mirror)
        let refusal = #expect(throws: PayloadError.self) { try scaler.write(scale: 2, to: directory.path("2x.geojson")) }
        #expect(refusal?.path == "features[0]")
    }

    @Test(
        "refreshing the week's feed with the day's: 142 features stored before, every strategy valid",
        .enabled(if: SharedDatasets.available, SharedDatasets.skipReason))
    func realRefresh() throws {
        let outcome = try Benchmark(
            configuration: BenchmarkConfiguration(
                spec: RunSpec(
                    scenario: scenario.source, payload: .file(SharedDatasets.path("usgs/all_day-2014-04-15.geojson")),
                    preload: .file(SharedDatasets.path("usgs/all_week-2014-04-15.geojson"))),
                strategies: StrategyCatalog.builtIn.all)
        ).run()
        let change = outcome.expected.outcome
        #expect(change.inserted == 146 - 142)
        #expect(change.updated + change.unchanged == 142)
        #expect(outcome.expected.uniqueObjects == 1513 + 4)
        #expect(outcome.results.count == StrategyCatalog.builtIn.all.count)
        for result in outcome.results { #expect(result.valid, "\(result.strategy): \(result.differences)") }
    }
}

@Suite("Generated refreshes")
struct GeneratedRefreshTests {
    @Test(
        "overlap and changed shares shape the refresh; every strategy stays valid",
        arguments: [("quakes", 0.9, 0.2), ("products", 0.5, 1.0), ("products", 1.0, 0.0)])
    // quakes and products: one object per record, so the shares apply to objects directly.
    func generatedRefresh(scenarioName: String, overlap: Double, changed: Double) throws {
        let scenario = try #require(ScenarioRegistry.scenario(named: scenarioName))
        let outcome = try Benchmark(
            configuration: BenchmarkConfiguration(
                spec: RunSpec(
                    scenario: scenario.source, payload: .generated(scale: try #require(Scale(factor: 0.04)), seed: 3),
                    preload: .generated(overlap: overlap, changed: changed), options: RunOptions(batchSize: .occurrences(100))),
                strategies: StrategyCatalog.builtIn.all)
        ).run()
        let objects = outcome.expected.occurrences  // 400 distinct objects, each met once
        let shared = Int((Double(objects) * overlap).rounded())
        let change = outcome.expected.outcome
        #expect(change.inserted == objects - shared)
        #expect(change.updated + change.unchanged == shared)
        // The changed share is drawn per object, a binomial sample: within four standard deviations.
        let expectedUpdated = Double(shared) * changed
        let deviation = (Double(shared) * changed * (1 - changed)).squareRoot()
        #expect(abs(Double(change.updated) - expectedUpdated) <= 4 * deviation + 1)
        #expect(outcome.expected.uniqueObjects == 2 * objects - shared)
        for result in outcome.results { #expect(result.valid, "\(result.strategy): \(result.differences)") }
    }

    @Test("the measured payload is the same with or without a generated preload")
    func payloadUnchangedByPreload() throws {
        let scenario = QuakesScenario()
        let plain = try Benchmark(
            configuration: BenchmarkConfiguration(
                spec: RunSpec(scenario: scenario.source, payload: .generated(scale: try #require(Scale(factor: 0.02)), seed: 8)),
                strategies: [CeilingStrategy.self])
        ).run()
        let refreshed = try Benchmark(
            configuration: BenchmarkConfiguration(
                spec: RunSpec(
                    scenario: scenario.source, payload: .generated(scale: try #require(Scale(factor: 0.02)), seed: 8),
                    preload: .generated(overlap: 0.5, changed: 0.5)),
                strategies: [CeilingStrategy.self])
        ).run()
        #expect(plain.results.first?.digest == refreshed.results.first?.digest)
    }

    @Test(
        "preload specs parse, and bad ones are refused",
        arguments: [
            ("overlap=0.9,changed=0.2", PreloadSpec.generated(overlap: 0.9, changed: 0.2)),
            ("overlap=1", .generated(overlap: 1, changed: 0)),
            ("feeds/week.geojson", .file("feeds/week.geojson")),
        ])
    func parsing(text: String, spec: PreloadSpec) throws {
        #expect(try PreloadSpec(parsing: text) == spec)
    }

    @Test("bad preload specs are refused", arguments: ["overlap=1.5", "overlap=x", "changed=0.2", "overlap=0.5,moved=1"])
    func badSpecs(text: String) {
        let error = expectRefusal { _ = try PreloadSpec(parsing: text) }
        #expect(error?.description.contains(text) == true)
    }

    @Test("transit refreshes by trip: stops all stored, overlapping trips' stop times stored, changed ones shifted")
    func transitRefresh() throws {
        let scenario = TransitScenario()
        let scale = try #require(Scale(factor: 0.01))
        let outcome = try Benchmark(
            configuration: BenchmarkConfiguration(
                spec: RunSpec(
                    scenario: scenario.source, payload: .generated(scale: scale, seed: 6),
                    preload: .generated(overlap: 0.5, changed: 1), options: RunOptions(batchSize: .occurrences(100))),
                strategies: StrategyCatalog.builtIn.all)
        ).run()
        for result in outcome.results { #expect(result.valid, "\(result.strategy): \(result.differences)") }
        let generator = TransitPayloadGenerator(scale: scale.factor, seed: 6)
        let change = outcome.expected.outcome
        let storedTrips = Int((Double(generator.tripCount) * 0.5).rounded())
        // Every stop unchanged; the stored trips and all their stop times revised; the rest new.
        #expect(change.unchanged == generator.stopCount)
        #expect(change.updated > storedTrips)
        #expect(change.inserted > generator.tripCount - storedTrips)
        #expect(change.inserted + change.updated + change.unchanged == outcome.expected.uniqueObjects)
    }

    @Test("chat refreshes by channel: overlapping channels' messages stored before, changed ones edited; all valid")
    func chatRefresh() throws {
        let scenario = ChatScenario()
        let scale = try #require(Scale(factor: 0.08))  // 4 channels
        let outcome = try Benchmark(
            configuration: BenchmarkConfiguration(
                spec: RunSpec(
                    scenario: scenario.source, payload: .generated(scale: scale, seed: 6),
                    preload: .generated(overlap: 0.5, changed: 1), options: RunOptions(batchSize: .occurrences(500))),
                strategies: StrategyCatalog.builtIn.all)
        ).run()
        for result in outcome.results { #expect(result.valid, "\(result.strategy): \(result.differences)") }
        // 2 of 4 channels (400 messages) were stored, all revised; the other 2 channels' messages are new.
        let change = outcome.expected.outcome
        #expect(change.updated >= 2 + 400)
        #expect(change.inserted >= 2 + 400)
        let plain = try Benchmark(
            configuration: BenchmarkConfiguration(
                spec: RunSpec(scenario: scenario.source, payload: .generated(scale: scale, seed: 6)),
                strategies: [CeilingStrategy.self])
        ).run()
        #expect(plain.results.first?.digest == outcome.results.first { $0.strategy == "ceiling" }?.digest)
    }
}
