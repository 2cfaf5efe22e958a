/// A seed store bench built or was given: where it is, what it holds, and what building it cost.
public struct SeedStoreReport: Sendable {
    public var path: String
    public var metadata: SeedStoreMetadata
    /// The file's size (with its -wal, if it has one).
    public var bytes: Int64
    /// What building it cost; nil for a store bench was given rather than built.
    public var buildTimes: SeedStoreBuildTimes?
    /// Payload occurrences read while building it; 0 for a store bench was given.
    public var occurrences: Int
    /// What the build's reading changed, one line each: records skipped by reason, the encoding
    /// `auto` chose, references a `--missing-reference` policy resolved. Empty for a given store.
    public var readingNotes: [String]

    public init(
        path: String, metadata: SeedStoreMetadata, bytes: Int64, buildTimes: SeedStoreBuildTimes?, occurrences: Int = 0, readingNotes: [String] = []
    ) {
        self.path = path
        self.metadata = metadata
        self.bytes = bytes
        self.buildTimes = buildTimes
        self.occurrences = occurrences
        self.readingNotes = readingNotes
    }
}
