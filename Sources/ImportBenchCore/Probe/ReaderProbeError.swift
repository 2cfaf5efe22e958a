/// Why the reader probe (the screen's query on a second connection) gave no latencies.
package enum ReaderProbeError: Error, CustomStringConvertible {
    /// Its query failed: the store's error, with its SQL.
    case queryFailed(String)
    /// Its thread ended without a result.
    case noResult

    package var description: String {
        switch self {
        case .queryFailed(let reason): return "the reader probe's query failed: \(reason)"
        case .noResult: return "the reader probe ended without a result"
        }
    }
}
