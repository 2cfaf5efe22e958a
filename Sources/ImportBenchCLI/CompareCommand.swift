import ArgumentParser
import Foundation
import ImportBenchCore
import ImportBenchReport

/// `bench compare`: judge a run's CSV against a baseline, for CI.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare a run's CSV with a baseline: counts must be equal, times and memory within a tolerance.",
        discussion: """
            Rows are matched by scenario, strategy, scale, batch size, preload and store settings. What a run \
            wrote (records, rows, digest, verdict) must be equal; cost counts (fetches, statements) are exact, \
            counted from the first repetition. Times and memory are judged from their repetitions: a Mann-Whitney \
            U test, Holm-adjusted over every timing compared (alpha 0.05), and a change counts only when it is \
            significant and larger than its tolerance; with fewer than 3 repetitions a side, medians are held \
            to the tolerance instead. Time is judged as each repetition's CPU time over the median of the run's C reference \
            CPU times (c_reference_cpu_s; files before csv_version 6: wall time over c_reference_s of the same repetition), so other \
            work on the machine does not move it. Timings of two builds of another configuration (debug, release) are not \
            judged, counts are; files from different machines are judged with a note: their ratios do not carry fully from one \
            CPU to another, and `bench gate` measures the baseline's revision beside this build instead. Default tolerances: \
            \(BaselineComparison.defaultTolerances.sorted { $0.key < $1.key }.map { "\($0.key)=\(Int($0.value * 100))%" }.joined(separator: ", ")). \
            Prints a Markdown table of every changed metric with its estimate, 95% interval and p.

            \(ExitStatus.help([.success, .failure, .regression, .improvementsOnly, .refusedResults, .usage]))
            """
    )

    @Argument(help: "The committed baseline CSV.")
    var baseline: String

    @Argument(help: "The CSV of the run to judge.")
    var current: String

    @Option(
        name: .customLong("tolerance"),
        help: ArgumentHelp("Relative tolerance for a measured metric, repeatable: wall_s=25%, peak_rss_bytes=0.3.", valueName: "metric=pct"))
    var tolerances: [String] = []

    @Flag(help: "Judge counts and digests only, ignoring times and memory (for CI on shared machines).")
    var countsOnly = false

    func validate() throws {
        for text in tolerances where BaselineComparison.parseTolerance(text) == nil {
            throw ValidationError(
                "invalid tolerance '\(text)'; expected METRIC=25% or METRIC=0.25 (a bare number is a fraction, at most 1) for a time or memory column, such as wall_s=25%"
            )
        }
    }

    func run() throws {
        var resolved = countsOnly ? [:] : BaselineComparison.defaultTolerances
        for text in tolerances {
            if let (metric, value) = BaselineComparison.parseTolerance(text) { resolved[metric] = value }
        }
        let comparison: BaselineComparison
        do {
            comparison = try BaselineComparison(baselinePath: baseline, currentPath: current, tolerances: resolved)
        } catch let error as ResultsInputError {
            throw CommandFailure.refused(error, doing: "cannot compare")
        } catch {
            throw CommandFailure.failed(error, doing: "cannot compare")
        }
        print(comparison.markdown, terminator: "")
        switch comparison.verdict {
        case .unchanged: return
        case .regression: throw ExitStatus.regression.exitCode
        case .improvementsOnly: throw ExitStatus.improvementsOnly.exitCode
        }
    }
}
