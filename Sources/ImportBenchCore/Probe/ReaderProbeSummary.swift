/// What a second connection saw while the import wrote: how many screen queries it ran and how long
/// they took, the wait for the writer's lock included. A frame is 16 ms; a p99 above it is a visible stall.
package struct ReaderProbeSummary: Sendable, Codable, Equatable {
    /// Queries a second the reader was asked to run.
    package var hz: Int
    /// Queries that completed while the import ran.
    package var queries: Int
    package var p50Seconds: Double
    package var p99Seconds: Double
    package var maxSeconds: Double
    /// The longest stretch one query spent waiting for the writer's lock (SQLITE_BUSY), in seconds.
    package var longestBlockedSeconds: Double

    package init(hz: Int, queries: Int, p50Seconds: Double, p99Seconds: Double, maxSeconds: Double, longestBlockedSeconds: Double) {
        self.hz = hz
        self.queries = queries
        self.p50Seconds = p50Seconds
        self.p99Seconds = p99Seconds
        self.maxSeconds = maxSeconds
        self.longestBlockedSeconds = longestBlockedSeconds
    }
}
