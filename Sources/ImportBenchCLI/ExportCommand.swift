import ArgumentParser
import Foundation
import ImportBenchReport

/// `bench export`: results CSVs in a dashboard's format, to track bench's numbers over time.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write results CSVs as Bencher Metric Format JSON or github-action-benchmark's customSmallerIsBetter list.",
        discussion: """
            One benchmark per run (named as compare names its row: chat naive 1x batch 1000), one metric per \
            timed or memory column, cost count, and wall and CPU time over the C reference's; each the median of the \
            run's repetitions (a count: the first), with their min and max as Bencher's lower_value and \
            upper_value, or as github-action-benchmark's range (± half the spread). Every metric is lower-is-better. \
            The CSVs are held to the results contract, as compare holds them.

            \(ExitStatus.help([.success, .failure, .refusedResults, .usage]))
            """
    )

    @Argument(help: ArgumentHelp("Results CSVs written by bench run.", valueName: "csv"))
    var files: [String]

    @Option(
        help: ArgumentHelp(
            "bencher: Bencher Metric Format (bencher run --adapter json); github-action: the list github-action-benchmark reads with tool: customSmallerIsBetter.",
            valueName: "bencher|github-action"))
    var format: DashboardExport.Format

    @Option(help: ArgumentHelp("Write the JSON to this file instead of standard output.", valueName: "path"))
    var out: String?

    @Flag(help: "Replace a file at --out that is not an export bench wrote (never one of the CSVs read).")
    var force = false

    func run() throws {
        if let out {
            let inputs = files.map { OutputPath.Input(path: $0, option: "a results CSV given to export") }
            try OutputPath.check(out, for: "--out", kind: .dashboardJSON, inputs: inputs, force: force)
        }
        let text: String
        do {
            text = try DashboardExport(paths: files).json(format)
        } catch let error as ResultsInputError {
            throw CommandFailure.refused(error, doing: "cannot export")
        } catch {
            throw CommandFailure.failed(error, doing: "cannot export")
        }
        guard let out else {
            print(text, terminator: "")
            return
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: out), options: .atomic)
        } catch {
            throw CommandFailure.failed("cannot write \(out): \(error.localizedDescription)")
        }
    }
}

extension DashboardExport.Format: ExpressibleByArgument {}
