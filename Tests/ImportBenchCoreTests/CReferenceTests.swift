import Foundation
import ImportBenchCore
import ImportBenchSchema
import ImportBenchStore
import ImportBenchStrategies
import Testing

@Suite("C reference")
struct CReferenceTests {
    /// Rows over every table of a store, join tables included.
    static func totalRows(_ store: StoreConnection, schema: Schema) throws -> Int64 {
        var total: Int64 = 0
        for table in try tableNames(store) {
            total += try store.prepare("SELECT count(*) FROM \"\(table)\"").scalarInt64() ?? 0
        }
        return total
    }

    static func tableNames(_ store: StoreConnection) throws -> [String] {
        let statement = try store.prepare(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'importbench_%'")
        defer { statement.reset() }
        var names: [String] = []
        while try statement.step() {
            if case .text(let name) = statement.value(at: 0) { names.append(name) }
        }
        return names
    }

    /// A generated payload imported by the ceiling in one transaction: its store's path and measurement.
    static func ceilingStore(
        _ scenario: any Scenario, scale: Double, seed: UInt64, in directory: TemporaryDirectory
    ) throws -> (path: String, measurement: ImportMeasurement) {
        let payload = directory.path("payload")
        try scenario.generate(scale: scale, seed: seed, to: payload)
        let storePath = directory.path("ceiling.sqlite")
        let measurement = try ImportRun(
            scenario: scenario, payloadPath: payload, method: CeilingStrategy.self, batchSize: .all, databasePath: storePath
        ).execute()
        return (storePath, measurement)
    }

    @Test("replays every row a ceiling wrote, and its store has the ceiling's digest", arguments: ScenarioRegistry.names)
    func replaysCeiling(scenarioName: String) throws {
        let scenario = try #require(ScenarioRegistry.scenario(named: scenarioName))
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let (storePath, ceiling) = try Self.ceilingStore(scenario, scale: 0.05, seed: 3, in: directory)
        let scratch = directory.path("reference.sqlite")

        let measurement = try CReference.replay(
            store: storePath, digest: ceiling.digest, schema: scenario.schema, settings: .default, scratchPath: scratch)
        for suffix in ["-wal", "-shm", "-journal"] {
            #expect(!FileManager.default.fileExists(atPath: storePath + suffix), "reading the ceiling's store left \(suffix)")
        }

        let ceilingRows = try Self.totalRows(StoreConnection(path: storePath), schema: scenario.schema)
        #expect(ceilingRows > 0)
        #expect(measurement.rows == ceilingRows)
        #expect(measurement.seconds > 0)
        for suffix in ["", "-wal", "-shm", "-journal"] {
            #expect(!FileManager.default.fileExists(atPath: scratch + suffix), "the scratch store\(suffix) is left behind")
        }
        // Replayed rows that do not match the digest the ceiling's store had are refused.
        #expect {
            try CReference.replay(
                store: storePath, digest: ContentDigest(tables: []), schema: scenario.schema, settings: .default, scratchPath: scratch)
        } throws: { error in
            guard case RunError.referenceDiffers = error else { return false }
            return true
        }
    }

    /// Rows per INSERT from one to far beyond the variable limit (lowered per table), and the plain
    /// replay: every technique writes the same rows into the same final schema.
    static let techniques: [CReference.Technique] = [.plain, .bulk(rowsPerInsert: 1), .bulk(rowsPerInsert: 7), .bulk(rowsPerInsert: 1_000_000)]

    @Test("every technique replays every row into the schema's tables and indexes", arguments: techniques)
    func techniqueReplaysEverything(technique: CReference.Technique) throws {
        let scenario = try #require(ScenarioRegistry.scenario(named: "chat"))
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let (storePath, ceiling) = try Self.ceilingStore(scenario, scale: 0.02, seed: 5, in: directory)
        let scratch = directory.path("reference.sqlite")
        var indexesAfterReplay: [String] = []
        let measurement = try CReference.replay(
            store: storePath, digest: ceiling.digest, schema: scenario.schema, settings: .default, scratchPath: scratch,
            technique: technique
        ) { job in
            let measured = try CReference.measure(job)
            let statement = try StoreConnection(path: job.scratchPath).prepare(
                "SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
            while try statement.step() {
                if case .text(let name) = statement.value(at: 0) { indexesAfterReplay.append(name) }
            }
            return measured
        }
        #expect(measurement.rows == (try Self.totalRows(StoreConnection(path: storePath), schema: scenario.schema)))
        #expect(indexesAfterReplay == scenario.schema.indexNames.sorted())
        let job = CReference.job(replaying: storePath, schema: scenario.schema, settings: .default, into: scratch, technique: technique)
        if case .bulk = technique {
            // The indexes are built after the rows, inside the timed transaction.
            #expect(!job.setupSQL.contains("CREATE INDEX") && !job.setupSQL.contains("CREATE UNIQUE INDEX"))
            #expect(job.indexSQL == scenario.schema.indexDDL.joined(separator: ";\n"))
        } else {
            #expect(job.indexSQL == nil && job.rowsPerInsert == 1)
        }
    }

    @Test("a store that cannot be replayed fails with SQLite's message, naming the table")
    func failureIsReported() throws {
        let scenario = try #require(ScenarioRegistry.scenario(named: "products"))
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let empty = directory.path("empty.sqlite")
        try StoreConnection(path: empty).execute("CREATE TABLE unrelated (x)")

        #expect {
            try CReference.replay(
                store: empty, digest: ContentDigest(tables: []), schema: scenario.schema, settings: .default,
                scratchPath: directory.path("r.sqlite"))
        } throws: { error in
            guard case RunError.referenceReplayFailed(_, let message) = error else { return false }
            return message.contains("no such table") && message.contains("product")
        }
    }

    @Test("every run of a benchmark carries its repetition's C reference time")
    func benchmarkCarriesReference() throws {
        let scenario = try #require(ScenarioRegistry.scenario(named: "chat"))
        var configuration = BenchmarkConfiguration(
            spec: RunSpec(scenario: scenario.source, payload: .generated(scale: try #require(Scale(parsing: "0.05x")), seed: 1)),
            strategies: [NaiveStrategy.self, UpsertStrategy.self], repetitions: 2)
        configuration.warmup = 0
        let outcome = try Benchmark(configuration: configuration).run()

        #expect(outcome.results.count == configuration.plannedStrategies.count * configuration.repetitions)
        for repetition in 1...2 {
            let runs = outcome.results.filter { $0.repetition == repetition }
            let reference = try #require(runs.first?.cReferenceSeconds)
            #expect(reference > 0)
            #expect(runs.allSatisfy { $0.cReferenceSeconds == reference })
            // The plain replay of earlier releases, beside it; the rows per INSERT chosen in the
            // first repetition's sweep, kept for the second.
            #expect(runs.allSatisfy { ($0.cReferencePlainSeconds ?? 0) > 0 })
            let rows = try #require(runs.first?.cReferenceRowsPerInsert)
            #expect(CReference.rowsPerInsertCandidates.contains(rows))
            #expect(outcome.results.allSatisfy { $0.cReferenceRowsPerInsert == rows })
            #expect(runs.allSatisfy { $0.payloadBytes == outcome.payloadBytes && $0.payloadBytes > 0 })
        }
    }
}
