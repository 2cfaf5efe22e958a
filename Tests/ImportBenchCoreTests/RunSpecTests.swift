import Foundation
import ImportBenchCore
import ImportBenchStrategies
import Testing

@Suite("a run described as data")
struct RunSpecTests {
    static let specs: [RunSpec] = [
        RunSpec(scenario: .builtIn("chat"), payload: .generated(scale: Scale(factor: 0.05) ?? .base, seed: 7)),
        RunSpec(
            scenario: .builtIn("quakes"), payload: .generated(scale: Scale(factor: 2) ?? .base, seed: 1),
            preload: .generated(overlap: 0.9, changed: 0.2), options: RunOptions(batchSize: .all, checkpoint: true, probeReadsHz: 60)),
        RunSpec(scenario: .builtIn("transit"), payload: .file("/data/gtfs")),
        RunSpec(
            scenario: .builtIn("products"), payload: .file("/data/products.json"), preload: .file("overlap=named-like-a-spec.json"),
            options: RunOptions(batchSize: .occurrences(250), onError: .skip, store: StoreSettings(journal: .delete))),
    ]

    @Test("a spec comes back from JSON equal to itself", arguments: specs)
    func roundTrip(spec: RunSpec) throws {
        let decoded = try JSONDecoder().decode(RunSpec.self, from: JSONEncoder().encode(spec))
        #expect(decoded == spec)
    }

    @Test("a scale is written as its text")
    func scaleAsText() throws {
        let scale = try #require(Scale(parsing: "2x"))
        #expect(String(decoding: try JSONEncoder().encode(scale), as: UTF8.self) == #""2x""#)
    }

    @Test("an unknown scenario name is refused, naming the known ones")
    func unknownScenario() throws {
        let error = expectRefusal { _ = try ScenarioSource.builtIn("nope").resolve() }
        #expect(error == .unknownScenario(name: "nope", known: ScenarioRegistry.names))
        #expect(error?.description == "unknown scenario 'nope'; choose from \(ScenarioRegistry.names.joined(separator: ", "))")
    }

    @Test("every built-in scenario resolves from its own source", arguments: ScenarioRegistry.names)
    func builtInReference(name: String) throws {
        let scenario = try #require(ScenarioRegistry.scenario(named: name))
        #expect(scenario.source == .builtIn(name))
        #expect(try scenario.source.resolve().name == name)
    }

    @Test("a run imports files: a spec with a generated payload or preload is refused")
    func runNeedsFiles() throws {
        let generated = RunSpec(scenario: .builtIn("chat"), payload: .generated(scale: .base, seed: 1))
        #expect(
            expectRefusal {
                _ = try ImportRun(spec: generated, scenario: ChatScenario(), method: CeilingStrategy.self, databasePath: "/tmp/x.sqlite")
            } == .payloadNotWritten(generated))
        let preloaded = RunSpec(scenario: .builtIn("chat"), payload: .file("p.json"), preload: .generated(overlap: 1, changed: 0))
        #expect(
            expectRefusal {
                _ = try ImportRun(spec: preloaded, scenario: ChatScenario(), method: CeilingStrategy.self, databasePath: "/tmp/x.sqlite")
            } == .payloadNotWritten(preloaded))
    }

    @Test("the child's spec of a run rebuilds a run with the same spec, strategy and store")
    func childSpecRebuildsRun() throws {
        var run = ImportRun(
            scenario: QuakesScenario(), payloadPath: "/data/day.geojson", method: UpsertStrategy.self, databasePath: "/tmp/s.sqlite",
            preloadPath: "/data/week.geojson", options: RunOptions(batchSize: .occurrences(100), checkpoint: true))
        // The whole payload's hash must reach the child, or its checkpoint would record only the fingerprint.
        run.payloadIdentity = PayloadIdentity(source: "recorded", digest: "1024/ab12", preloadDigest: "512/cd34")
        let sent = try JSONEncoder().encode(ImportRunSpec(run))
        let rebuilt = try JSONDecoder().decode(ImportRunSpec.self, from: sent).makeRun()
        #expect(rebuilt.spec == run.spec)
        #expect(rebuilt.payloadIdentity == run.payloadIdentity)
        #expect(rebuilt.spec.scenario == .builtIn("quakes"))
        #expect(rebuilt.method.name == UpsertStrategy.name && rebuilt.databasePath == run.databasePath)
        #expect(rebuilt.payloadPath == "/data/day.geojson" && rebuilt.preloadPath == "/data/week.geojson")
    }

    @Test("a configuration's request rules read its spec")
    func requestRules() throws {
        var configuration = BenchmarkConfiguration(
            spec: RunSpec(scenario: .builtIn("quakes"), payload: .file("day.geojson"), preload: .generated(overlap: 0.5, changed: 0)),
            strategies: [UpsertStrategy.self])
        #expect(expectRefusal { try configuration.checkRequest() } == .generatedPreloadWithRecordedPayload)
        configuration.spec.payload = .generated(scale: .base, seed: 1)
        #expect(throws: Never.self) { try configuration.checkRequest() }
    }
}
