import ImportBenchStore

/// One measured run: a scenario, strategy, scale and repetition, with everything a report needs.
public struct RunResult: Sendable {
    public var scenario: String
    public var strategy: String
    /// What the strategy is for: reporters find the reference run by it, not by a name.
    public var role: StrategyRole = .user
    public var scale: String
    public var seed: UInt64
    public var batchSize: BatchSize
    public var repetition: Int
    public var measurement: ImportMeasurement
    /// Distinct objects the store holds afterwards.
    public var uniqueRecords: Int
    /// What the payload must do to the objects it names: inserted, updated, unchanged.
    public var outcome: RefreshOutcome
    /// The payload imported before the measured run, if this run was a refresh.
    public var preload: String?
    public var digest: String
    /// The store's content equals what the payload's records say it must be.
    public var valid: Bool
    /// Tables whose content differs from the expected, one line each; empty when valid.
    public var differences: [String]
    public var sqliteVersion: String
    public var benchVersion: String
    public var environment: MachineEnvironment = .current
    /// The build that measured it: configuration and git revision.
    public var build: BuildIdentity = .current
    /// The store's journal and synchronous setting the run used.
    public var settings: StoreSettings
    /// The size of the payload file (or files) the run read.
    public var payloadBytes: Int64
    /// What the C reference took to insert the rows of the same repetition's ceiling (see
    /// `CReference`); nil when no ceiling ran.
    public var cReferenceSeconds: Double?
    /// The C reference's CPU time over the same span.
    public var cReferenceCPUSeconds: Double?

    public var records: Int { measurement.occurrences }

    public init(
        scenario: String, strategy: String, scale: String, seed: UInt64, batchSize: BatchSize, repetition: Int,
        measurement: ImportMeasurement, uniqueRecords: Int, outcome: RefreshOutcome, preload: String?, digest: String, valid: Bool, differences: [String],
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

public enum BenchVersion {
    public static let current = "0.1.0"
}
