import ImportBenchPayload
import ImportBenchStore
import ImportBenchStrategies

/// One measured run: a scenario, strategy, scale and repetition, with everything a report needs.
package struct RunResult: Sendable {
    package var scenario: String
    package var strategy: String
    /// What the strategy is for: reporters find the reference run by it, not by a name.
    package var role: StrategyRole = .user
    package var scale: String
    package var seed: UInt64
    package var batchSize: BatchSize
    package var repetition: Int
    package var measurement: ImportMeasurement
    /// Distinct objects the store holds afterwards.
    package var uniqueRecords: Int
    /// What the payload must do to the objects it names: inserted, updated, unchanged.
    package var outcome: RefreshOutcome
    /// The payload imported before the measured run, if this run was a refresh.
    package var preload: String?
    package var digest: String
    /// The store's content equals what the payload's records say it must be.
    package var valid: Bool
    /// Tables whose content differs from the expected, one line each; empty when valid.
    package var differences: [String]
    package var sqliteVersion: String
    package var benchVersion: String
    package var environment: MachineEnvironment = .current
    /// The build that measured it: configuration and git revision.
    package var build: BuildIdentity = .current
    /// The store's journal and synchronous setting the run used.
    package var settings: StoreSettings
    /// Whether the run's configuration decodes each next batch on a thread of its own
    /// (`--decode-ahead`): the configuration's setting, on every row it wrote, though the C
    /// reference, seed-copy and commands read no batches.
    package var decodeAhead = false
    /// The size of the payload file (or files) the run read.
    package var payloadBytes: Int64
    /// What the C reference took to insert the rows of the same repetition's ceiling (see
    /// `CReference`); nil when no ceiling ran.
    package var cReferenceSeconds: Double?
    /// The C reference's CPU time over the same span.
    package var cReferenceCPUSeconds: Double?
    /// Rows per INSERT the C reference used (the fastest of the benchmark's first repetition).
    package var cReferenceRowsPerInsert: Int?
    /// The plain replay's time for the same rows (one row per INSERT, indexes first): the
    /// reference of releases before issue 46, kept one release so dated figures can be read.
    package var cReferencePlainSeconds: Double?

    /// Takes every figure of one repetition's C reference replays; nil clears them.
    package mutating func setCReference(_ replay: CReference.Replay?) {
        cReferenceSeconds = replay?.bulk.seconds
        cReferenceCPUSeconds = replay?.bulk.cpuSeconds
        cReferenceRowsPerInsert = replay?.rowsPerInsert
        cReferencePlainSeconds = replay?.plain?.seconds
    }

    package var records: Int { measurement.occurrences }

    package init(
        scenario: String, strategy: String, scale: String, seed: UInt64, batchSize: BatchSize, repetition: Int,
        measurement: ImportMeasurement, uniqueRecords: Int, outcome: RefreshOutcome, preload: String?, digest: String, valid: Bool,
        differences: [String],
        sqliteVersion: String, benchVersion: String, settings: StoreSettings = .default, payloadBytes: Int64 = 0,
        cReferenceSeconds: Double? = nil
    ) {
        self.scenario = scenario
        self.strategy = strategy
        self.scale = scale
        self.seed = seed
        self.batchSize = batchSize
        self.repetition = repetition
        self.measurement = measurement
        self.uniqueRecords = uniqueRecords
        self.outcome = outcome
        self.preload = preload
        self.digest = digest
        self.valid = valid
        self.differences = differences
        self.sqliteVersion = sqliteVersion
        self.benchVersion = benchVersion
        self.settings = settings
        self.payloadBytes = payloadBytes
        self.cReferenceSeconds = cReferenceSeconds
    }
}

package enum BenchVersion {
    package static let current = "0.1.0"
}
