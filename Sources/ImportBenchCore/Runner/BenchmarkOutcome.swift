import ImportBenchPayload

/// What one benchmark found: every run's result, and what the header says of the payload, the
/// reference and each method's preparation.
package struct BenchmarkOutcome: Sendable {
    package var results: [RunResult]
    package var expected: ExpectedContent
    /// What the reference run must hold: the measured payload alone, in an empty store.
    package var expectedWithoutPreload: ExpectedContent?
    /// Why the reference did not run, when a refresh payload names objects only the preload holds.
    package var referenceSkipped: String?
    /// Payload records every run left out under `--on-error skip`, by reason (`stops.txt: malformed row`).
    package var skippedRecords: [String: Int]
    /// The first few errors of records skipped under `--on-error skip`, as examples.
    package var skippedErrors: [PayloadError] = []
    package var payloadPath: String
    package var payloadBytes: Int64
    /// Every method as it was prepared for its runs, with what preparing it made (seed-copy: its store).
    package var preparations: [PreparedMethod] = []
    /// How the payload was read, for the header: the encoding `--encoding auto` chose per file.
    package var readingNotes: [String] = []
}
