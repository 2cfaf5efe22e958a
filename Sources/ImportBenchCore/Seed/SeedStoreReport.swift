/// A seed store bench built or was given: where it is, what it holds, and what building it cost.
package struct SeedStoreReport: Sendable {
    package var path: String
    package var metadata: SeedStoreMetadata
    /// The file's size (with its -wal, if it has one).
    package var bytes: Int64
    /// What building it cost; nil for a store bench was given rather than built.
    package var buildTimes: SeedStoreBuildTimes?
    /// Payload occurrences read while building it; 0 for a store bench was given.
    package var occurrences: Int
    /// What the build's reading changed, one line each: records skipped by reason, the encoding
    /// `auto` chose, references a `--missing-reference` policy resolved. Empty for a given store.
    package var readingNotes: [String]

    package init(
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

extension SeedStoreReport: PreparationReport {
    /// Where the adopted seed store came from and what it is.
    package var headerLine: String {
        let adopter = SeedCopyMethod.name
        let megabytes = Figures.megabytes(bytes)
        if let times = buildTimes {
            return "\(adopter): seed store built in \(String(format: "%.2f", times.total)) s, \(megabytes) MB "
                + "(untimed; \(Figures.count(metadata.objects)) objects)\n"
        }
        return "\(adopter): adopting \(path), \(megabytes) MB, built \(metadata.builtAt) from "
            + "\(metadata.describedSource) by bench \(metadata.benchVersion)\n"
    }
}
