import ArgumentParser
import Foundation
import ImportBenchCore
import ImportBenchExpectations
import ImportBenchReport

/// `bench report`: turn results CSVs into charts a reviewer can read without running anything.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Draw charts from results CSVs: one self-contained HTML page, or one SVG file per chart.",
        discussion: """
            The page opens with the answer: per payload and setting (scale, batch size, journal, synchronous, \
            --pragma values), the fastest valid strategy and every strategy's time as a multiple of it and of the \
            ceiling, with its fetches (medians of the repetitions; invalid runs marked, never ranked); one sentence \
            per swept dimension saying where the winner changes, or that it does not; and each strategy's multiple \
            of the ceiling drawn across each swept dimension (for a SQLite setting, its wall time too).

            Below, per scenario (and preload): wall time and fetches against the payload's occurrences on log-log axes, \
            with each strategy's growth exponent k (time ~ size^k) in the legend; peak memory per strategy and scale; \
            and, for runs made with --probe-reads, a reader's p99 latency per batch size against one 60 Hz frame (16 ms). \
            Repetitions are drawn as their median with a min-max whisker; settings that vary (batch size, journal, \
            synchronous, pragmas) get a panel each. CSVs of any csv_version work; charts whose columns a file lacks \
            are left out with a note. The output holds no timestamp: the same CSVs give the same bytes.

            \(ExitStatus.help([.success, .failure, .refusedResults, .expectationBroken, .usage]))
            """
    )

    enum Format: String, CaseIterable, ExpressibleByArgument {
        case html, svg
    }

    @Argument(help: ArgumentHelp("Results CSVs written by bench run; several are drawn together.", valueName: "csv"))
    var files: [String]

    @Option(
        help: ArgumentHelp(
            "Where to write: the HTML file (default report.html), or for --format svg the directory the SVG files go in (default report-charts, created if missing).",
            valueName: "path"))
    var out: String?

    @Option(
        help: ArgumentHelp(
            "html: one page with every chart inline and the environment table; svg: each chart as a standalone file named after its scenario and metric (chat-time.svg, chat-fetches.svg, chat-memory.svg, chat-reader-p99.svg).",
            valueName: "html|svg"))
    var format: Format = .html

    @Flag(help: "Replace a file at --out (or a chart's file in it) that bench did not write (never one of the CSVs read).")
    var force = false

    @OptionGroup(title: "Expectations")
    var expectationOptions: ExpectationOptions

    func run() throws {
        if format == .html {
            let inputs = files.map { OutputPath.Input(path: $0, option: "a results CSV given to report") }
            try OutputPath.check(out ?? "report.html", for: "--out", kind: .htmlReport, inputs: inputs, force: force)
        }
        let report: ChartReport
        do {
            report = ChartReport(try ReportInput(paths: files))
        } catch let error as ResultsInputError {
            throw CommandFailure.refused(error, doing: "cannot report")
        } catch {
            throw CommandFailure.failed(error, doing: "cannot report")
        }
        switch format {
        case .html:
            let path = out ?? "report.html"
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                throw CommandFailure.failed("cannot write the report to \(path): it is a directory; give a file name such as \(path)/report.html")
            }
            let (verdicts, broken) = try judgeExpectations(report.input.runs)
            do {
                try HTMLReport.write(report, tables: verdicts.isEmpty ? [] : [ExpectationReport.reportTable(verdicts)], to: path)
            } catch {
                throw CommandFailure.failed("cannot write the report to \(path): \(error.localizedDescription)")
            }
            print(path)
            if let broken { throw broken }
        case .svg:
            let directory = out ?? "report-charts"
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), !isDirectory.boolValue {
                throw CommandFailure.failed("cannot write SVG files into \(directory): it is a file; --format svg needs a directory")
            }
            let (verdicts, broken) = try judgeExpectations(report.input.runs)
            for path in try writeCharts(report, into: directory) { print(path) }
            if !verdicts.isEmpty { print(ExpectationReport.render(verdicts), terminator: "") }
            for section in report.sections {
                for (metric, note) in section.notes.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                    FileHandle.standardError.write(Data("\(section.title): no \(metric.rawValue) chart. \(note)\n".utf8))
                }
            }
            if let broken { throw broken }
        }
    }

    /// Writes every chart into a directory of its own beside `directory`, then, once none would
    /// replace a file bench did not write there (or one of the CSVs read), renames each into place.
    private func writeCharts(_ report: ChartReport, into directory: String) throws -> [String] {
        let manager = FileManager.default
        do {
            try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure.failed("cannot write SVG files into \(directory): \(error.localizedDescription)")
        }
        let partial = URL(fileURLWithPath: directory).appendingPathComponent(".bench-charts.partial").path
        defer { try? manager.removeItem(atPath: partial) }
        let written: [String]
        do {
            written = try report.writeSVGFiles(into: partial)
        } catch {
            throw CommandFailure.failed("cannot write SVG files into \(directory): \(error.localizedDescription)")
        }
        let inputs = files.map { OutputPath.Input(path: $0, option: "a results CSV given to report") }
        let targets = written.map { URL(fileURLWithPath: directory).appendingPathComponent(URL(fileURLWithPath: $0).lastPathComponent).path }
        for target in targets { try OutputPath.check(target, for: "--out", kind: .svgChart, inputs: inputs, force: force) }
        for (source, target) in zip(written, targets) where rename(source, target) != 0 {
            throw CommandFailure.failed("cannot move \(source) into place at \(target): \(String(cString: strerror(errno)))")
        }
        return targets
    }

    /// The rules judged on the rows read, checked first against the strategies they hold (a rule
    /// naming another is a usage error, exit 64); the failure a broken one earns.
    private func judgeExpectations(_ rows: [ResultsRow]) throws -> ([ExpectationVerdict], CommandFailure?) {
        guard expectationOptions.isGiven else { return ([], nil) }
        var strategies: [String] = []
        for row in rows where !strategies.contains(row.strategy) { strategies.append(row.strategy) }
        do {
            try ExpectationJudge.check(try expectationOptions.parsedRules(), planned: strategies)
        } catch {
            throw CommandFailure.usage(error)
        }
        return try expectationOptions.judge(rows: rows)
    }
}
