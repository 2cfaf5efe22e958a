import ImportBenchPayload

/// How every run of a benchmark imports, whatever the strategy: kept in one value that the
/// configuration holds, each `ImportRun` receives and a child process is handed, so no setting is
/// copied field by field from one shape to the next.
package struct RunOptions: Codable, Sendable, Equatable {
    package var batchSize: BatchSize
    /// Record each committed batch in the store, and continue an unfinished import of the same
    /// payload found there instead of starting again.
    package var checkpoint: Bool
    /// Whether a payload record that cannot be read stops the import or is skipped and counted.
    package var onError: PayloadErrorPolicy
    /// The store's journal and synchronous setting.
    package var store: StoreSettings
    /// Queries a second of the scenario's screen query on a second connection while the import runs; nil: no reader.
    package var probeReadsHz: Int?
    /// The longest CSV row, JSON element, string and number the payload's reader holds.
    package var limits: PayloadLimits
    /// Discard an unfinished checkpointed import in the store instead of refusing to run over it.
    package var restart: Bool
    /// How a CSV payload's bytes are text.
    package var encoding: TextEncoding
    /// What happens to a key-only reference to an object neither stored nor earlier in the payload.
    package var missingReference: MissingReferencePolicy
    /// Where statements are counted: bench's own connection, or every connection at the SQLite level.
    package var counting: CountingLevel
    /// Decode each next batch on a thread of its own while the strategy writes the current one.
    package var decodeAhead: Bool

    package init(
        batchSize: BatchSize = .default, checkpoint: Bool = false,
        onError: PayloadErrorPolicy = .fail, store: StoreSettings = .default, probeReadsHz: Int? = nil,
        limits: PayloadLimits = .default, restart: Bool = false, encoding: TextEncoding = .utf8,
        missingReference: MissingReferencePolicy = .fail, counting: CountingLevel = .connection, decodeAhead: Bool = false
    ) {
        self.decodeAhead = decodeAhead
        self.counting = counting
        self.missingReference = missingReference
        self.encoding = encoding
        self.limits = limits
        self.restart = restart
        self.batchSize = batchSize
        self.checkpoint = checkpoint
        self.onError = onError
        self.store = store
        self.probeReadsHz = probeReadsHz
    }

    /// How every reader of the run reads the payload.
    package var reading: PayloadReading {
        PayloadReading(onError: onError, limits: limits, encoding: encoding, missingReference: missingReference)
    }
}

/// As its text (`1000`, `all`), as the command line and the CSV write it.
extension BatchSize: CodableAsText {
    package static let textMeaning = "a batch size"
}
