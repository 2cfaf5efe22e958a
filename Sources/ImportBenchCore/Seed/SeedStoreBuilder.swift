import Foundation
import ImportBenchPayload
import ImportBenchStore
import ImportBenchStrategies

/// Builds a seed store: the store an app ships or downloads instead of importing. Built as fast as
/// SQLite allows (tables without secondary indexes, the ceiling's multi-row inserts in one transaction,
/// no journal, no syncs), then indexed, vacuumed and analysed, and published as one self-contained
/// file in journal mode DELETE. It is written at `PATH.partial` and renamed only when complete.
package struct SeedStoreBuilder {
    package let scenario: any Scenario
    package let payloadPath: String
    /// The generator's scale and seed the payload came from, recorded in the metadata; nil for a recorded payload.
    package var scale: Scale?
    package var seed: UInt64?
    /// How the payload is read, as the run that adopts the store reads it.
    package var reading: PayloadReading
    /// Bytes per page (`--pragma page_size`), set before the first page is written; nil for SQLite's default.
    package var pageSize: Int?
    /// Asked between batches and phases; true stops the build and leaves nothing at the destination.
    package var stopRequested: () -> Bool = { ImportInterruption.isRequested }

    /// Occurrences decoded per step: the ceiling keeps the unique objects anyway, this bounds the rest.
    private static let batchSize = BatchSize.occurrences(10_000)

    package init(
        scenario: any Scenario, payloadPath: String, scale: Scale? = nil, seed: UInt64? = nil, reading: PayloadReading = PayloadReading()
    ) {
        self.reading = scenario.effectiveReading(reading)
        self.scenario = scenario
        self.payloadPath = payloadPath
        self.scale = scale
        self.seed = seed
    }

    /// Builds the store at `path`, replacing what is there only once the new one is complete. On
    /// failure nothing is left at `path` (an older store there stays as it was) and the error says why
    /// and what to do; an interruption is rethrown as `RunError.interrupted`.
    package func build(at path: String) throws -> SeedStoreReport {
        let staged = path + ".partial"
        let start = MonotonicClock.now()
        if case .other(let what) = DatabaseFile.occupant(of: path) { throw RunError.refused(.notOurStore(path: path, found: what)) }
        DatabaseFile.remove(staged)
        do {
            let (metadata, measured, occurrences, notes) = try populate(staged, start: start)
            var times = measured
            if stopRequested() { throw RunError.interrupted }
            for suffix in DatabaseFile.companionSuffixes where FileManager.default.fileExists(atPath: staged + suffix) {
                throw ImportError.seedStore(path: staged, problem: .leftCompanion(file: staged + suffix))
            }
            try DatabaseFile.publish(staged, as: path, durable: true)
            times.total = MonotonicClock.now() - start
            return SeedStoreReport(
                path: path, metadata: metadata, bytes: DatabaseFile.size(path), buildTimes: times, occurrences: occurrences, readingNotes: notes)
        } catch {
            DatabaseFile.remove(staged)
            if let error = error as? RunError, error.isInterruption { throw error }
            throw ImportError.seedStore(
                path: path, problem: .notBuilt(cause: ErrorCause(error), path: path, remedy: remedy(for: error, at: path)))
        }
    }

    /// Fills the staging file and leaves it closed, in journal mode DELETE.
    private func populate(_ staged: String, start: Double) throws -> (SeedStoreMetadata, SeedStoreBuildTimes, Int, [String]) {
        let schema = scenario.schema
        let store = try StoreConnection(path: staged)
        // Before the mark, which writes the first page: the page size is fixed from then on.
        if let pageSize { try store.execute("PRAGMA page_size = \(pageSize)") }
        try DatabaseFile.mark(store)
        // Nothing to roll back to and nothing to survive: a failed build is deleted. The ceiling resolves
        // every reference from its own key map and throws on a dangling one, so the foreign-key check
        // would only repeat it. A larger cache lets CREATE INDEX sort in memory.
        try store.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA foreign_keys = OFF; PRAGMA cache_size = -65536")
        var times = SeedStoreBuildTimes()
        var occurrences = 0
        var notes: [String] = []

        var phaseStart = MonotonicClock.now()
        try store.inTransaction {
            for statement in schema.tableDDL { try store.execute(statement) }
            try store.execute(SeedStoreMetadata.ddl)
            // Generation 0, as a preload: any later import into an adopted copy stamps a higher one.
            let reader = try scenario.openPayload(path: payloadPath, reading: reading)
            occurrences = try CeilingStrategy.load(reader, schema: schema, into: store, batchSize: Self.batchSize, buildsIndexes: false) {
                if stopRequested() { throw RunError.interrupted }
            }
            // As `bench run` refuses it: a store of nothing is no seed.
            if occurrences == 0, !reader.skippedRecords.isEmpty {
                throw PayloadError.everyRecordSkipped(file: payloadPath, skipped: reader.skippedRecords, first: reader.skippedErrors.first)
            }
            notes = reader.skippedRecords.sorted { $0.key < $1.key }.map { "skipped \($0.value) records: \($0.key)" } + reader.readingNotes
        }
        times.load = MonotonicClock.now() - phaseStart

        if stopRequested() { throw RunError.interrupted }
        phaseStart = MonotonicClock.now()
        try store.inTransaction {
            for statement in schema.indexDDL { try store.execute(statement) }
        }
        times.indexes = MonotonicClock.now() - phaseStart

        let digest = try schema.digest(of: store)
        var metadata = SeedStoreMetadata(
            scenario: scenario.name, scale: scale?.description, seed: seed, payloadFingerprint: PayloadFingerprint.of(payloadPath),
            digest: digest.value, objects: digest.objectCount, readingOptions: reading.contentOptions(),
            builtAt: ISO8601DateFormatter().string(from: Date()), buildSeconds: 0)

        if stopRequested() { throw RunError.interrupted }
        phaseStart = MonotonicClock.now()
        try store.execute("VACUUM")
        times.vacuum = MonotonicClock.now() - phaseStart

        phaseStart = MonotonicClock.now()
        try store.execute("ANALYZE")
        times.analyze = MonotonicClock.now() - phaseStart

        metadata.buildSeconds = MonotonicClock.now() - start
        try metadata.insert(into: store)
        let mode = try store.prepare("PRAGMA journal_mode = DELETE")
        defer { mode.reset() }
        guard try mode.step(), mode.value(at: 0) == .text("delete") else {
            throw ImportError.seedStore(path: staged, problem: .journalModeRefused(answer: mode.value(at: 0)))
        }
        return (metadata, times, occurrences, notes)
    }

    private func remedy(for error: any Error, at path: String) -> SeedStoreProblem.Remedy {
        switch error {
        case is PayloadError: return .fixPayload
        case StrategyError.danglingReference: return .missingReferencePolicy
        default: return .checkDirectory((path as NSString).deletingLastPathComponent)
        }
    }
}
