import Foundation
import ImportBenchCore
import ImportBenchPayload
import ImportBenchStore
import ImportBenchStrategies
import Testing

@Suite("Seed store builder")
struct SeedStoreBuilderTests {
    static let scenarios = ScenarioRegistry.names

    /// A generated payload of `scenario` at 0.05x in `directory`.
    static func payload(_ scenario: any Scenario, seed: UInt64 = 1, in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("\(scenario.name)-seed\(seed)")
        try scenario.generate(scale: 0.05, seed: seed, to: path)
        return path
    }

    static func builder(_ scenario: any Scenario, payload: String, seed: UInt64 = 1) throws -> SeedStoreBuilder {
        let scale = try #require(Scale(parsing: "0.05x"))
        return SeedStoreBuilder(scenario: scenario, payloadPath: payload, scale: scale, seed: seed)
    }

    /// Names of every index SQLite holds, automatic ones included.
    static func indexNames(in store: StoreConnection) throws -> Set<String> {
        let statement = try store.prepare("SELECT name FROM sqlite_schema WHERE type = 'index'")
        defer { statement.reset() }
        var names: Set<String> = []
        while try statement.step() {
            if case .text(let name) = statement.value(at: 0) { names.insert(name) }
        }
        return names
    }

    static func text(_ sql: String, in store: StoreConnection) throws -> String? {
        let statement = try store.prepare(sql)
        defer { statement.reset() }
        guard try statement.step(), case .text(let value) = statement.value(at: 0) else { return nil }
        return value
    }

    @Test(
        "the seed holds what a live import and the expected content hold, with every index, analysed, in one file",
        arguments: scenarios)
    func matchesLiveImport(scenarioName: String) throws {
        let scenario = try #require(ScenarioRegistry.scenario(named: scenarioName))
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let payload = try Self.payload(scenario, in: directory)
        let seedPath = directory.path("seed.sqlite")

        let report = try Self.builder(scenario, payload: payload).build(at: seedPath)

        for suffix in ["-wal", "-shm", "-journal", ".partial"] {
            #expect(!FileManager.default.fileExists(atPath: seedPath + suffix), "\(suffix) left beside the seed")
        }
        let live = try ImportRun(
            scenario: scenario, payloadPath: payload, method: PrewarmStrategy.self, batchSize: .default,
            databasePath: directory.path("live.sqlite")
        ).execute()
        let expected = try ExpectedContent.build(
            schema: scenario.schema, reader: scenario.openReader(path: payload), scratchPath: directory.path("expected.sqlite"))

        let seed = try StoreConnection(path: seedPath)
        let digest = try scenario.schema.digest(of: seed)
        #expect(digest.differences(from: expected.digest) == [])
        #expect(digest == expected.digest)
        #expect(digest == live.digest)
        #expect(report.metadata.digest == digest.value)
        #expect(report.metadata.objects == expected.uniqueObjects)
        #expect(report.metadata.scenario == scenario.name)
        #expect(report.metadata.scale == "0.05x" && report.metadata.seed == 1)
        #expect(report.metadata.payloadFingerprint == PayloadFingerprint.of(payload))
        #expect(report.bytes > 0)

        let reference = try StoreConnection(path: directory.path("ddl.sqlite"))
        for statement in scenario.schema.ddl { try reference.execute(statement) }
        #expect(try Self.indexNames(in: seed) == Self.indexNames(in: reference))
        #expect(try Self.text("PRAGMA journal_mode", in: seed) == "delete")
        #expect(try seed.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'sqlite_stat1'").scalarInt64() == 1)
        #expect(try seed.prepare("SELECT count(*) FROM sqlite_stat1").scalarInt64() ?? 0 > 0)
        #expect(try Self.text("PRAGMA quick_check", in: seed) == "ok")
    }

    @Test("the schema's tables and indexes, taken apart, are its DDL", arguments: scenarios)
    func ddlSplit(scenarioName: String) throws {
        let schema = try #require(ScenarioRegistry.scenario(named: scenarioName)).schema
        #expect(schema.tableDDL.allSatisfy { $0.hasPrefix("CREATE TABLE") })
        #expect(schema.indexDDL.allSatisfy { $0.hasPrefix("CREATE INDEX") || $0.hasPrefix("CREATE UNIQUE INDEX") })
        #expect(schema.indexNames.count == schema.indexDDL.count)
        for (name, sql) in zip(schema.indexNames, schema.indexDDL) { #expect(sql.contains("\"\(name)\" ON")) }
        #expect((schema.tableDDL + schema.indexDDL).sorted() == schema.ddl.sorted())
        #expect(schema.ddl.filter { $0.hasPrefix("CREATE TABLE") } == schema.tableDDL)
    }

    @Test("a payload cut in the middle: an error naming it, nothing at the destination, an older store there untouched")
    func truncatedPayload() throws {
        let scenario = ChatScenario()
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let payload = try Self.payload(scenario, in: directory)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: payload))
        let cut = directory.path("cut.json")
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))

        let fresh = directory.path("fresh.sqlite")
        let error = #expect(throws: ImportError.self) { try Self.builder(scenario, payload: cut).build(at: fresh) }
        #expect(error?.description.contains(cut) == true)
        #expect(error?.description.contains("Nothing was written at \(fresh)") == true)
        #expect(!FileManager.default.fileExists(atPath: fresh))
        #expect(!FileManager.default.fileExists(atPath: fresh + ".partial"))

        let existing = directory.path("existing.sqlite")
        let before = try Self.builder(scenario, payload: payload).build(at: existing)
        #expect(throws: ImportError.self) { try Self.builder(scenario, payload: cut).build(at: existing) }
        #expect(try SeedStoreMetadata.read(at: existing) == before.metadata)
        #expect(!FileManager.default.fileExists(atPath: existing + ".partial"))
    }

    @Test("a destination in a directory that cannot exist: an error naming it")
    func unwritableDestination() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let payload = try Self.payload(ProductsScenario(), in: directory)
        let out = payload + "/seed.sqlite"  // under a regular file
        let error = #expect(throws: ImportError.self) { try Self.builder(ProductsScenario(), payload: payload).build(at: out) }
        #expect(error?.description.contains(out) == true)
    }

    @Test("an interrupted build leaves nothing and says so")
    func interrupted() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let payload = try Self.payload(QuakesScenario(), in: directory)
        var builder = try Self.builder(QuakesScenario(), payload: payload)
        builder.stopRequested = { true }
        let out = directory.path("seed.sqlite")
        #expect { _ = try builder.build(at: out) } throws: { ($0 as? RunError)?.isInterruption == true }
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(!FileManager.default.fileExists(atPath: out + ".partial"))
    }
}
