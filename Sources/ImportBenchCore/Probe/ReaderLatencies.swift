import Histogram

/// The reader's query latencies, kept in an HDR histogram and corrected for coordinated omission:
/// a query that overran its tick also stands for the ticks it delayed, as a frozen screen misses
/// every frame it could not draw, not just one.
struct ReaderLatencies {
    /// Microseconds, three significant digits, up to an hour.
    private var histogram = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)
    private let intervalMicroseconds: UInt64
    let hz: Int
    private(set) var queries = 0
    private(set) var maxSeconds = 0.0
    private(set) var longestBlockedSeconds = 0.0

    init(hz: Int) {
        self.hz = hz
        intervalMicroseconds = UInt64((1_000_000 / Double(max(1, hz))).rounded())
    }

    /// One query that took `latency` seconds, `blocked` of them waiting for the writer's lock.
    mutating func record(latency: Double, blocked: Double) {
        queries += 1
        maxSeconds = max(maxSeconds, latency)
        longestBlockedSeconds = max(longestBlockedSeconds, blocked)
        let microseconds = UInt64(max(0, latency * 1_000_000).rounded())
        histogram.recordCorrectedValue(min(microseconds, histogram.highestTrackableValue), expectedInterval: intervalMicroseconds)
    }

    /// Latencies the histogram holds: the queries run and the ticks they stood in for.
    var recordedCount: UInt64 { histogram.totalCount }

    /// At most the exact maximum: the histogram holds latencies rounded to the microsecond and
    /// answers with a bucket's bound, either of which can lie above every latency measured.
    func percentileSeconds(_ percentile: Double) -> Double {
        histogram.totalCount == 0 ? 0 : min(Double(histogram.valueAtPercentile(percentile)) / 1_000_000, maxSeconds)
    }

    var summary: ReaderProbeSummary {
        ReaderProbeSummary(
            hz: hz, queries: queries, p50Seconds: percentileSeconds(50), p99Seconds: percentileSeconds(99),
            maxSeconds: maxSeconds, longestBlockedSeconds: longestBlockedSeconds)
    }
}
