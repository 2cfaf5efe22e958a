import Foundation
import ImportBenchPayload
import ImportBenchStore

extension SeedCopyMethod {
    /// The store the runs adopt: the given one, checked against the payload first so a mismatch
    /// stops the benchmark before any run, or one built now, untimed, in the work directory from
    /// the same payload. Its report is what the header says of it.
    package static func prepare(_ method: ImportMethod, for preparation: MethodPreparation) throws -> PreparedMethod {
        let report = try method.settings[givenStore].map { try check($0, against: preparation) } ?? build(from: preparation)
        return PreparedMethod(method: method.configured([preparedStore: report.path]), report: report)
    }

    private static func build(from preparation: MethodPreparation) throws -> SeedStoreReport {
        let path = preparation.workDirectory.appendingPathComponent("seed.sqlite").path
        preparation.announce("building the seed store \(name) adopts (untimed)")
        let generator = preparation.payload.generator
        var builder = SeedStoreBuilder(
            scenario: preparation.scenario, payloadPath: preparation.payloadPath, scale: generator?.scale, seed: generator?.seed,
            reading: preparation.reading)
        builder.pageSize = preparation.store.pageSize
        return try builder.build(at: path)
    }

    /// Refuses a given store built from another payload, read otherwise, or with another page size
    /// than the runs ask, naming each difference and the `bench seed-db` command that builds a
    /// matching one.
    private static func check(_ given: String, against preparation: MethodPreparation) throws -> SeedStoreReport {
        let scenario = preparation.scenario
        let generator = preparation.payload.generator
        let metadata = try SeedStoreMetadata.read(at: given)
        let reading = scenario.effectiveReading(preparation.reading)
        // Judged as this scenario reads now: an earlier bench recorded options without effect on it.
        var judged = metadata
        if let recorded = metadata.readingOptions.flatMap(PayloadReading.init(contentOptions:)) {
            judged.readingOptions = scenario.effectiveReading(recorded).contentOptions()
        }
        let differences = judged.differences(
            scenario: scenario.name, scale: generator?.scale.description, seed: generator?.seed,
            payloadFingerprint: PayloadFingerprint.of(preparation.payloadPath), readingOptions: reading.contentOptions())
        guard differences.isEmpty else {
            throw ImportError.seedStore(
                path: given,
                problem: .otherPayload(
                    source: metadata.describedSource, differences: differences, command: seedDBCommand(for: preparation, at: given)))
        }
        // Without --pragma page_size the runs' stores have SQLite's default, which the store must have too.
        let wanted = try preparation.store.pageSize ?? pageSize(of: ":memory:")
        let actual = try pageSize(of: given)
        guard actual == wanted else {
            throw ImportError.seedStore(
                path: given,
                problem: .otherPageSize(
                    actual: actual, wanted: wanted, asked: preparation.store.pageSize != nil, command: seedDBCommand(for: preparation, at: given)))
        }
        return SeedStoreReport(path: given, metadata: metadata, bytes: DatabaseFile.size(given), buildTimes: nil)
    }

    /// The `bench seed-db` command that builds the store these runs can adopt.
    private static func seedDBCommand(for preparation: MethodPreparation, at path: String) -> String {
        var source: String
        switch preparation.payload {
        case .file(let payload): source = "--payload \(payload)"
        case .generated(let scale, let seed): source = "--scale \(scale) --seed \(seed)"
        }
        let flags = preparation.scenario.effectiveReading(preparation.reading).contentOptions(omittingDefaults: true)
        if !flags.isEmpty { source += " " + flags }
        if let pageSize = preparation.store.pageSize { source += " --pragma page_size=\(pageSize)" }
        return "bench seed-db --scenario \(preparation.scenario.name) \(source) --out \(path)"
    }

    /// The store's page size, as its header has it (`:memory:`: SQLite's default for a new store).
    private static func pageSize(of path: String) throws -> Int {
        let store = try StoreConnection(path: path, readOnly: true)
        return try withExtendedLifetime(store) {
            let statement = try store.prepare("PRAGMA page_size")
            defer { statement.reset() }
            guard try statement.step() else { throw ImportError.seedStore(path: path, problem: .noPageSize) }
            return Int(statement.int64(at: 0))
        }
    }
}
