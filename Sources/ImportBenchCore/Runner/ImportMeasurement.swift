import ImportBenchStore

/// What one import cost, as measured around the strategy's work (schema creation and verification excluded).
package struct ImportMeasurement: Sendable, Codable {
    package var occurrences = 0
    package var counts = StatementCounts()
    package var rowsWritten: Int64 = 0
    package var wallSeconds = 0.0
    package var cpuUserSeconds = 0.0
    package var cpuSystemSeconds = 0.0
    /// Time spent reading and decoding the payload into records: under `--decode-ahead`, the time the
    /// importing thread waited for a batch decoded on the other thread.
    package var decodeSeconds = 0.0
    /// Time spent in the strategy's statements.
    package var writeSeconds = 0.0
    /// Time spent opening and committing transactions.
    package var commitSeconds = 0.0
    package var peakRSSBytes: Int64 = 0
    package var allocatedBytes: UInt64 = 0
    /// The importing thread's highest live allocation; nil when records were decoded on another
    /// thread (`--decode-ahead`) and freed on this one, where no one thread's peak is the import's.
    package var peakAllocatedBytes: UInt64? = 0
    package var mallocCount: UInt64 = 0
    /// User-space instructions the importing thread retired, where the machine offers the counter.
    package var instructions: UInt64?
    /// Why `instructions` is missing (no counter on this machine, not permitted), else nil.
    package var instructionsNote: String?
    package var databaseBytes: Int64 = 0
    package var digest = ContentDigest(tables: [])
    /// Set when the import continued a checkpointed one: its counts and times cover only the rest.
    package var resumedFrom: ResumePoint?
    /// The way a strategy took instead of its own where the store ruled its own out (`bulk` on a
    /// store that holds rows keeps its indexes: "indexes kept"); nil when it went its own way.
    package var fallback: String?
    /// The longest time from BEGIN to the end of COMMIT of one transaction: what a reader locked out waits at worst.
    package var longestWriteTransactionSeconds = 0.0
    /// What a concurrent reader saw, when the run was probed.
    package var readerProbe: ReaderProbeSummary?
    /// Where `counts` were taken: bench's connection, or every connection at the SQLite level,
    /// whose trace the times then include.
    package var countedAt: CountingLevel = .connection
    /// Whether bench measured inside the import (its decode, write and commit phases, the
    /// allocator): false for a command, a process bench only sees from outside.
    package var measuredInside = true

    package init() {}
}
