/// Results files that `compare` or `report` cannot use as a whole (a single bad value is a
/// `PayloadError` naming its file and line): which files, and why.
public enum ResultsInputError: Error, Equatable, CustomStringConvertible {
    /// Two results files with no row in common: nothing to compare.
    case nothingInCommon(baseline: String, current: String)
    /// Files with a header and no runs: nothing to chart.
    case noRuns(paths: [String])

    public var description: String {
        switch self {
        case .nothingInCommon(let baseline, let current):
            return "\(baseline) and \(current) share no (scenario, strategy, scale, batch size, preload, journal, synchronous, probe rate) row"
        case .noRuns(let paths):
            return "nothing to chart: \(paths.joined(separator: ", ")) hold a header but no runs"
        }
    }
}
