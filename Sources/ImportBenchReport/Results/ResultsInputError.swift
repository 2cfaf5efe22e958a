import ImportBenchCore

/// Results files that `compare` or `report` cannot use: which file, where, and why; never a
/// payload's error, as results are read by `ResultsFile`, not the payload reader.
package enum ResultsInputError: Error, Equatable, CustomStringConvertible {
    /// Unreadable, a ragged row, a missing column, a value of the wrong kind: where and what.
    case malformed(file: String, location: String?, expected: String, found: String)
    /// Two results files with no row in common: nothing to compare.
    case nothingInCommon(baseline: String, current: String)
    /// Files with a header and no runs: nothing to chart.
    case noRuns(paths: [String])

    package var description: String {
        switch self {
        case .malformed(let file, let location, let expected, let found):
            return "results file \(file)\(location.map { " (\($0))" } ?? ""): expected \(expected), found \(found)"
        case .nothingInCommon(let baseline, let current):
            return "\(baseline) and \(current) share no (scenario, strategy, scale, batch size, preload, journal, synchronous, probe rate) row"
        case .noRuns(let paths):
            return "nothing to chart: \(paths.joined(separator: ", ")) hold a header but no runs"
        }
    }
}
