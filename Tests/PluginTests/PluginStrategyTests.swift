import Foundation
import ImportBench
// The harness that runs the plug-in, as bench does: not what a plug-in imports.
import ImportBenchCore
import Testing

/// A strategy written outside bench, through the library a plug-in imports, runs beside the
/// built-ins and is held to the same verification.
@Suite("A plug-in's strategy")
struct PluginStrategyTests {
    static let catalog: StrategyCatalog = {
        do {
            return try StrategyCatalog.builtIn.adding([OneUpsertStrategy.self])
        } catch {
            preconditionFailure("the test strategy's name is taken: \(error)")
        }
    }()

    @Test(
        "is valid on a refresh of chat (overlap 0.9, changed 0.2), with the built-ins' digest",
        arguments: [
            BatchSize.occurrences(1), .occurrences(500), .all,
        ])
    func refresh(batchSize: BatchSize) throws {
        let catalog = Self.catalog
        let strategies = try ["naive", "upsert", OneUpsertStrategy.name].map { try #require(catalog.strategy(named: $0)) }
        let outcome = try Benchmark(
            configuration: BenchmarkConfiguration(
                spec: RunSpec(
                    scenario: ChatScenario().source, payload: .generated(scale: try #require(Scale(factor: 0.05)), seed: 3),
                    preload: try PreloadSpec(parsing: "overlap=0.9,changed=0.2"), options: RunOptions(batchSize: batchSize)),
                strategies: strategies, catalog: catalog)
        ).run()
        let plugIn = try #require(outcome.results.first { $0.strategy == OneUpsertStrategy.name })
        #expect(plugIn.valid, "\(plugIn.differences)")
        let naive = try #require(outcome.results.first { $0.strategy == "naive" })
        #expect(plugIn.digest == naive.digest)
        // An upsert per occurrence and no fetch of its own: the subqueries are part of the statement.
        #expect(plugIn.measurement.counts.fetches == 0)
        #expect(plugIn.measurement.counts.upserts >= plugIn.records)
    }

    @Test("keeps what a later, partial product leaves out, as the verifier expects", arguments: [BatchSize.occurrences(1), .all])
    func partialObjects(batchSize: BatchSize) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("importbench-plugin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let payload = directory.appendingPathComponent("products.json").path
        try #"[{"serialCode": "p1", "name": "Lamp", "stock": 3, "description": "Bright"}, {"serialCode": "p1", "stock": null}]"#
            .write(toFile: payload, atomically: true, encoding: .utf8)
        let outcome = try Benchmark(
            configuration: BenchmarkConfiguration(
                spec: RunSpec(scenario: .builtIn("products"), payload: .file(payload), options: RunOptions(batchSize: batchSize)),
                strategies: [try #require(Self.catalog.strategy(named: OneUpsertStrategy.name))], catalog: Self.catalog)
        ).run()
        let plugIn = try #require(outcome.results.first { $0.strategy == OneUpsertStrategy.name })
        #expect(plugIn.valid, "\(plugIn.differences)")
    }

    @Test("runs after the built-in designs and before the reference in --strategy all")
    func listedBeforeTheReference() {
        let names = Self.catalog.names
        #expect(names.last == "ceiling")
        #expect(names.dropLast().last == OneUpsertStrategy.name)
        #expect(Self.catalog.strategy(named: OneUpsertStrategy.name)?.summary == OneUpsertStrategy.summary)
    }

    @Test("a name already taken, or one the command line cannot take, is refused")
    func refusedNames() {
        #expect(throws: ImportError.nameTaken(OneUpsertStrategy.name, origin: .plugIn)) {
            try Self.catalog.adding([OneUpsertStrategy.self])
        }
        #expect(throws: ImportError.invalidName("Upper Case", origin: .plugIn)) {
            try StrategyCatalog.builtIn.adding([BadlyNamed.self])
        }
    }
}

/// A strategy whose name no command line takes.
final class BadlyNamed: ImportStrategy {
    static let name = "Upper Case"
    static let summary = "refused before it runs"
    init(context: StrategyContext) throws {}
    func write(_ batch: RecordBatch, pass: Int) throws {}
}

@Suite("The plug-in page")
struct PluginPageTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("carries the minimal strategy exactly as the tests compile it, in under 60 lines")
    func minimalExampleIsTheTestedOne() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/plugins.md"), encoding: .utf8)
        let source = try String(contentsOf: Self.root.appendingPathComponent("Tests/PluginTests/OneUpsertStrategy.swift"), encoding: .utf8)
        #expect(page.contains("```swift\n" + source + "```\n"))
        #expect(source.split(separator: "\n", omittingEmptySubsequences: false).count < 60)
    }
}
