import Foundation
import ImportBenchSchema
import ImportBenchStore

/// What a seed store was built from, kept in the store itself (table `importbench_seed`, one row),
/// so whoever adopts it can tell whether it holds the payload they expect without reading that payload.
package struct SeedStoreMetadata: Sendable, Equatable {
    package var scenario: String
    /// The generator's scale (`2x`); nil when built from a recorded payload.
    package var scale: String?
    /// The generator's seed; nil when built from a recorded payload.
    package var seed: UInt64?
    /// `PayloadFingerprint` of the payload it holds: the same bytes give the same fingerprint.
    package var payloadFingerprint: String
    /// The content digest (`Schema.digest(of:)`) of what it holds.
    package var digest: String
    /// Distinct objects it holds.
    package var objects: Int
    /// `PayloadReading.contentOptions()` of the build; nil for a store built before they were recorded.
    package var readingOptions: String?
    package var benchVersion: String
    package var sqliteVersion: String
    /// When it was built, ISO 8601 in UTC.
    package var builtAt: String
    /// How long building it took, from opening the staging file to the end of ANALYZE.
    package var buildSeconds: Double

    package init(
        scenario: String, scale: String?, seed: UInt64?, payloadFingerprint: String, digest: String, objects: Int,
        readingOptions: String?, benchVersion: String = BenchVersion.current, sqliteVersion: String = StoreConnection.sqliteVersion,
        builtAt: String, buildSeconds: Double
    ) {
        self.scenario = scenario
        self.scale = scale
        self.seed = seed
        self.payloadFingerprint = payloadFingerprint
        self.digest = digest
        self.objects = objects
        self.readingOptions = readingOptions
        self.benchVersion = benchVersion
        self.sqliteVersion = sqliteVersion
        self.builtAt = builtAt
        self.buildSeconds = buildSeconds
    }

    static let table = "importbench_seed"

    static let ddl = """
        CREATE TABLE \(table) (scenario TEXT NOT NULL, scale TEXT, seed INTEGER, payload_fingerprint TEXT NOT NULL, \
        digest TEXT NOT NULL, objects INTEGER NOT NULL, bench_version TEXT NOT NULL, sqlite_version TEXT NOT NULL, \
        built_at TEXT NOT NULL, build_seconds REAL NOT NULL, reading_options TEXT)
        """

    private static let columns =
        "scenario, scale, seed, payload_fingerprint, digest, objects, bench_version, sqlite_version, built_at, build_seconds, reading_options"

    func insert(into store: StoreConnection) throws {
        let statement = try store.prepare("INSERT INTO \(Self.table) (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        statement.bind([
            .text(scenario), scale.map(StoreValue.text) ?? .null, seed.map { .integer(Int64(bitPattern: $0)) } ?? .null,
            .text(payloadFingerprint), .text(digest), .integer(Int64(objects)), .text(benchVersion), .text(sqliteVersion),
            .text(builtAt), .real(buildSeconds), readingOptions.map(StoreValue.text) ?? .null,
        ])
        try statement.execute()
    }

    /// The store's metadata row, or nil when it has none (not a store `bench seed-db` built).
    static func read(from store: StoreConnection) throws -> SeedStoreMetadata? {
        let exists = try store.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = '\(table)'").scalarInt64() ?? 0
        guard exists > 0 else { return nil }
        // By name, in one statement: a store built before a column existed (reading_options) lacks it.
        let statement = try store.prepare("SELECT * FROM \(table) LIMIT 1")
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        var row: [String: StoreValue] = [:]
        for column in 0..<statement.columnCount { row[statement.columnName(at: column)] = statement.value(at: column) }
        func text(_ name: String) -> String? {
            if case .text(let value)? = row[name] { return value }
            return nil
        }
        guard let scenario = text("scenario"), let fingerprint = text("payload_fingerprint"), let digest = text("digest") else { return nil }
        let seed: UInt64? = if case .integer(let value)? = row["seed"] { UInt64(bitPattern: value) } else { nil }
        let objects: Int = if case .integer(let value)? = row["objects"] { Int(value) } else { 0 }
        let seconds: Double = if case .real(let value)? = row["build_seconds"] { value } else { 0 }
        return SeedStoreMetadata(
            scenario: scenario, scale: text("scale"), seed: seed, payloadFingerprint: fingerprint, digest: digest,
            objects: objects, readingOptions: text("reading_options"), benchVersion: text("bench_version") ?? "?",
            sqliteVersion: text("sqlite_version") ?? "?", builtAt: text("built_at") ?? "?", buildSeconds: seconds)
    }

    /// Reads the metadata of the seed store at `path` without writing to it (its WAL stays as it is).
    package static func read(at path: String) throws -> SeedStoreMetadata {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw ImportError.seedStore(path: path, problem: .noSuchFile)
        }
        let metadata: SeedStoreMetadata?
        do {
            metadata = try read(from: StoreConnection(path: path, readOnly: true))
        } catch {
            throw ImportError.seedStore(path: path, problem: .unreadable(cause: ErrorCause(error)))
        }
        guard let metadata else {
            throw ImportError.seedStore(
                path: path, problem: .notBuiltBySeedDB(table: table))
        }
        return metadata
    }

    /// One line per way this store differs from the payload a run imports, read as `readingOptions`
    /// (`PayloadReading.contentOptions()`); empty when it holds that payload. `scale` and `seed` are nil for a recorded payload.
    package func differences(scenario: String, scale: String?, seed: UInt64?, payloadFingerprint: String, readingOptions: String) -> [String] {
        var lines: [String] = []
        if scenario != self.scenario {
            lines.append("scenario: built for \(self.scenario), the run imports \(scenario)")
        }
        if readingOptions != self.readingOptions {
            lines.append("reading: built with \(self.readingOptions ?? "options this bench did not record"), the run reads with \(readingOptions)")
        }
        guard payloadFingerprint != self.payloadFingerprint else { return lines }
        var payloadLines: [String] = []
        if let scale, let built = self.scale, scale != built {
            payloadLines.append("scale: built at \(built), the run imports \(scale)")
        }
        if let seed, let built = self.seed, seed != built {
            payloadLines.append("seed: built with seed \(built), the run uses seed \(seed)")
        }
        if payloadLines.isEmpty, scenario == self.scenario {
            payloadLines.append(
                "payload: built from \(self.describedSource) (fingerprint \(self.payloadFingerprint)), "
                    + "the run imports another (fingerprint \(payloadFingerprint))")
        }
        return lines + payloadLines
    }

    /// Where the store's content came from, in words.
    package var describedSource: String {
        if let scale, let seed { return "the \(scenario) generator at \(scale), seed \(seed)" }
        return "a recorded \(scenario) payload"
    }
}
