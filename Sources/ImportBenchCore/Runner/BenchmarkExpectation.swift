import ImportBenchPayload
import ImportBenchStrategies

/// What the runs of one `Benchmark.run()` must end with, worked out once from the payload (after
/// its preload, for a refresh), and what reading the payload left out or chose.
struct BenchmarkExpectation {
    /// The earlier payload every run but the reference loads first; nil unless the run is a refresh.
    let preloadPath: String?
    let expected: ExpectedContent
    /// What the reference must hold: the payload alone, in an empty store; nil when it cannot be loaded so.
    let expectedWithoutPreload: ExpectedContent?
    /// Why the reference does not run, when the payload alone cannot be loaded into an empty store.
    let referenceSkipped: String?
    /// Records every run leaves out under `--on-error skip`, by reason, and the first few errors.
    let skippedRecords: [String: Int]
    let skippedErrors: [PayloadError]
    /// How the payload was read, for the header: the encoding `--encoding auto` chose per file.
    let readingNotes: [String]

    /// What `strategy`'s store must hold: the reference loads the payload alone, refresh or not.
    func target(for strategy: ImportMethod) -> ExpectedContent {
        strategy.role.loadsPayloadAlone ? (expectedWithoutPreload ?? expected) : expected
    }
}
