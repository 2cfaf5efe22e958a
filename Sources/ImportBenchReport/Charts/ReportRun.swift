import ImportBenchCore

/// One row of a results CSV, typed for charting. Columns a CSV predates (or leaves empty, as the
/// probe's for an unprobed run) are nil, so every chart can skip what it lacks.
public struct ReportRun: Sendable, Equatable {
    public var scenario: String
    public var strategy: String
    public var scale: Scale
    public var preload: String
    public var batchSize: String
    public var repetition: Int?
    public var records: Double?
    public var wallSeconds: Double?
    public var fetches: Double?
    public var peakRSSBytes: Double?
    public var readerP99Seconds: Double?
    public var journalMode: String
    public var synchronous: String
    public var probeHz: String
    /// "pass/batch" where a checkpointed import resumed: its counts and times cover only the rest.
    public var resumedFrom: String
    public var valid: Bool?

    public init(
        scenario: String, strategy: String, scale: Scale, preload: String = "", batchSize: String,
        repetition: Int? = nil, records: Double? = nil, wallSeconds: Double? = nil, fetches: Double? = nil,
        peakRSSBytes: Double? = nil, readerP99Seconds: Double? = nil, journalMode: String = "", synchronous: String = "",
        probeHz: String = "", resumedFrom: String = "", valid: Bool? = nil
    ) {
        self.scenario = scenario
        self.strategy = strategy
        self.scale = scale
        self.preload = preload
        self.batchSize = batchSize
        self.repetition = repetition
        self.records = records
        self.wallSeconds = wallSeconds
        self.fetches = fetches
        self.peakRSSBytes = peakRSSBytes
        self.readerP99Seconds = readerP99Seconds
        self.journalMode = journalMode
        self.synchronous = synchronous
        self.probeHz = probeHz
        self.resumedFrom = resumedFrom
        self.valid = valid
    }
}
