import ImportBenchStore

/// What one import cost, as measured around the strategy's work (schema creation and verification excluded).
public struct ImportMeasurement: Sendable, Codable {
    public var occurrences = 0
    public var counts = StatementCounts()
    public var rowsWritten: Int64 = 0
    public var wallSeconds = 0.0
    public var cpuUserSeconds = 0.0
    public var cpuSystemSeconds = 0.0
    /// Time spent reading and decoding the payload into records.
    public var decodeSeconds = 0.0
    /// Time spent in the strategy's statements.
    public var writeSeconds = 0.0
    /// Time spent opening and committing transactions.
    public var commitSeconds = 0.0
    public var peakRSSBytes: Int64 = 0
    public var allocatedBytes: UInt64 = 0
    public var peakAllocatedBytes: UInt64 = 0
    public var mallocCount: UInt64 = 0
    /// User-space instructions the importing thread retired, where the machine offers the counter.
    public var instructions: UInt64?
    /// Why `instructions` is missing (no counter on this machine, not permitted), else nil.
    public var instructionsNote: String?
    public var databaseBytes: Int64 = 0
    public var digest = ContentDigest(tables: [])
    /// Set when the import continued a checkpointed one: its counts and times cover only the rest.
    public var resumedFrom: ResumePoint?
    /// The longest time from BEGIN to the end of COMMIT of one transaction: what a reader locked out waits at worst.
    public var longestWriteTransactionSeconds = 0.0
    /// What a concurrent reader saw, when the run was probed.
    public var readerProbe: ReaderProbeSummary?
    /// Where `counts` were taken: bench's connection, or every connection at the SQLite level,
    /// whose trace the times then include.
    public var countedAt: CountingLevel = .connection

    public init() {}
}
