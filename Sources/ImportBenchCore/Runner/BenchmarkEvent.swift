/// What the benchmark tells its front end while it works.
package enum BenchmarkEvent {
    case generatingPayload(path: String)
    case readingExpectedContent
    /// A method prepares what its runs need (`MeasuredMethod.prepare`), untimed: `task` says what.
    case preparing(strategy: String, task: String)
    case runStarted(strategy: String, repetition: Int, index: Int, total: Int)
    case runProgress(strategy: String, occurrences: Int, expected: Int)
    /// A run has finished: its result, and every result of this benchmark so far, each with the C
    /// reference's time once its repetition's ceiling has run (for a file that keeps what finished).
    case runFinished(RunResult, soFar: [RunResult])
    /// The C reference replays the ceiling's rows (untimed for the run, outside every measurement).
    case replayingCReference(repetition: Int)
}
