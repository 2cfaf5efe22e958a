import ImportBenchPayload
import ImportBenchStore
import ImportBenchStrategies

/// An import that stopped before its end: which strategy, where, why, and what stays committed.
/// Codable, so that a run in a child process hands its stop to the parent whole, as a value.
package struct ImportStop: Codable, Sendable, CustomStringConvertible {
    package enum Stage: String, Sendable, Codable {
        /// The payload could not be read (a `PayloadError`).
        case reading
        /// The strategy's statements failed on a batch.
        case writing
        /// The strategy's end-of-pass work failed.
        case finishing
        /// A batch's COMMIT (or the BEGIN before it) failed: a full disk, an I/O error.
        case committing
        /// The store could not be created (its schema, its preload): nothing of the import was written.
        case creating
        /// SIGINT asked the import to stop.
        case interrupted
        /// A user's command failed (`--command`): it exited non-zero, was killed, or ran too long.
        case command
    }

    package let strategy: String
    package let stage: Stage
    package let pass: Int
    /// The batch that was rolled back (or could not be read); nil for end-of-pass work.
    package let batchIndex: Int?
    /// The failing batch's occurrences, by stream ordinal, when it was read.
    package let ordinals: ClosedRange<Int>?
    /// Batches of `pass` committed before the failure (0 for a strategy writing a pass in one transaction).
    package let committedBatches: Int
    package let committedOccurrences: Int
    package let databasePath: String
    /// The ledger records the committed batches, so running the same command again resumes.
    package let checkpointed: Bool
    /// What went wrong: the error that stopped the import, as a value that crosses processes.
    package let cause: ErrorCause

    init(
        strategy: String, stage: Stage, pass: Int, batch: RecordBatch?, batchIndex: Int?, committedBatches: Int,
        committedOccurrences: Int, databasePath: String, checkpointed: Bool, cause: any Error
    ) {
        self.strategy = strategy
        self.stage = stage
        self.pass = pass
        self.batchIndex = batchIndex
        if let first = batch?.occurrences.first?.ordinal, let last = batch?.occurrences.last?.ordinal {
            self.ordinals = first...last
        } else {
            self.ordinals = nil
        }
        self.committedBatches = committedBatches
        self.committedOccurrences = committedOccurrences
        self.databasePath = databasePath
        self.checkpointed = checkpointed
        self.cause = ErrorCause(cause)
    }

    package var description: String {
        // A command's failure names the command and ends with its standard error: nothing is added after it.
        if stage == .command {
            // What the command did to its store says what is at the store's path itself.
            if case .method(.commandStore) = cause { return "\(cause)" }
            return "\(cause)\n  (\(committedSummary))"
        }
        var what: String
        switch stage {
        case .reading: what = "reading \(place) failed: \(cause)"
        case .writing: what = "writing \(place) failed: \(cause)"
        case .finishing: what = "\(place) failed: \(cause)"
        case .committing: what = "committing \(place) failed: \(cause)"
        case .creating: what = "creating the store failed: \(cause)"
        case .interrupted: what = "interrupted before committing \(place)"
        case .command: what = "\(cause)"
        }
        if let ordinals { what += " (occurrences \(ordinals.lowerBound)-\(ordinals.upperBound))" }
        return "\(strategy): \(what). \(committedSummary)"
    }

    /// The batch that stopped (`batch 3 of pass 2`), or the end-of-pass work.
    private var place: String {
        let passNote = pass > 0 ? " of pass \(pass + 1)" : ""
        return batchIndex.map { "batch \($0)\(passNote)" } ?? "the end of pass \(pass + 1)"
    }

    /// What the store holds now, and how to go on.
    package var committedSummary: String {
        let earlierPasses = pass > 0 ? "every batch of the earlier pass\(pass > 1 ? "es" : "") and " : ""
        let committed =
            committedBatches == 0
            ? "\(earlierPasses.isEmpty ? "nothing of this import" : earlierPasses + "no batch of this pass") is committed"
            : "\(earlierPasses)batches 0-\(committedBatches - 1)\(pass > 0 ? " of pass \(pass + 1)" : "") "
                + "(\(committedOccurrences) occurrences) stay committed"
        let next = checkpointed && stage != .creating ? "; run the same command again to resume" : ""
        if stage == .command { return "its store holds whatever it wrote before it stopped: \(databasePath)" }
        let undone = stage == .creating ? "Nothing was imported" : "The failed batch was rolled back"
        return "\(undone); \(committed) in \(databasePath)\(next)."
    }

    /// Where it stopped and what stays committed, without the cause.
    package var summary: String { "\(strategy): stopped at \(place). \(committedSummary)" }
}
