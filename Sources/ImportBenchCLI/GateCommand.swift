import ArgumentParser
import Foundation
import ImportBenchCore
import ImportBenchExpectations
import ImportBenchReport

/// `bench gate`: CI's regression gate, on any machine. Counts are held to the committed baseline,
/// exactly; times and memory are judged against the baseline's own revision, rebuilt and run here
/// beside this build, so the verdict compares code with code on the machine at hand (Bencher's
/// relative continuous benchmarking) instead of this machine with the one that recorded the baseline.
struct GateCommand: ParsableCommand, CheckedCommand {
    static let configuration = CommandConfiguration(
        commandName: "gate",
        abstract:
            "Gate a build for CI: counts against the committed baseline, times and memory against the baseline's revision rebuilt and run beside it here.",
        discussion: """
            Reads the baseline's git_revision, exports that commit from the repository holding the baseline \
            (git archive, into a temporary folder), builds this executable's product there with this build's configuration \
            (bench, or a plug-in's executable, from where its package lies in the repository), then runs \
            the preset with each build in turn, one repetition at a time (base, current, current, base, ...), on \
            this machine, in passes (--passes 2: every repetition twice, minutes apart). Counts and what the runs \
            wrote are compared with the baseline file, exactly, both ways; times and memory with the base's runs, \
            each repetition by its fastest pass, by the rank test `bench compare` uses. The exported tree and \
            its build are removed at the end, and when a signal stops the gate. A revision that cannot be found or \
            built fails the gate, naming it.

            After --, bench run's options name the runs to gate instead of the preset (a plug-in's own payload and \
            strategies, as its baseline was recorded): both builds run them.

            Adds one build of the base to a CI job (a debug build from scratch: about 2-3 minutes on 2 cores) \
            and the base's repetitions. Where the gate runs again on the same revision, --base-folder keeps the \
            build to reuse it; --base-bench takes a base built elsewhere.

            --expect and --expectations (before --) judge rules between the strategies of the current build's \
            runs, every run a repetition, as bench run judges them (docs/ci.md, "Expectations").

            Exit status: 0 counts equal and no timing regression (timing improvements are reported); 2 a \
            regression in counts or timings, or a baseline row missing; 6 an expectation broken (undecided too \
            with --strict); 4 counts improved on the baseline (record it); 1 the base could not be found, built \
            or run; 5 a results file refused; 128+N stopped by signal N, with everything the gate made removed.
            """
    )

    @Option(help: "The committed baseline CSV: its counts are the reference, its git_revision names the base.")
    var baseline = "Results/baseline.csv"

    @Option(help: "Repetitions a side, interleaved one by one.")
    var repetitions = 12

    @Option(
        help: "Passes over the repetitions: each side runs the preset repetitions x passes times, and each repetition is judged by its fastest pass.")
    var passes = 2

    @Option(help: "The preset both builds run.")
    var preset: BenchmarkPreset = .ci

    @Option(help: "Measure this commit, tag or branch as the base instead of the baseline's git_revision.")
    var baseRevision: String?

    @Option(help: "A bench binary already built from the base, instead of building one.")
    var baseBench: String?

    @Option(help: "Build the base in this folder and keep it (a new or empty folder, or one an earlier gate kept for the same revision).")
    var baseFolder: String?

    @Option(
        name: .customLong("tolerance"),
        help: ArgumentHelp("Relative tolerance for a measured metric, repeatable, as compare takes it: wall_s=10%.", valueName: "metric=pct"))
    var tolerances: [String] = []

    @Option(help: "Keep every run's CSV in this folder (base-N.csv, current-N.csv, N in the order run).")
    var csvFolder: String?

    @OptionGroup(title: "Expectations")
    var expectationOptions: ExpectationOptions

    @Argument(
        parsing: .postTerminator,
        help: ArgumentHelp(
            "After --, the runs to gate instead of the preset: bench run's options, as the baseline was recorded (a plug-in's own payload and strategies).",
            valueName: "run-option"))
    var runOptions: [String] = []

    /// What every run of both builds runs, before its `--repetitions 1 --quiet --csv FILE`.
    var runArguments: [String] { runOptions.isEmpty ? ["--preset", preset.rawValue] : runOptions }

    /// Options the gate gives each run itself.
    static let gateOwnedOptions = ["--repetitions", "--csv", "--quiet", "--preset"]

    func validate() throws {
        guard repetitions >= 1 else { throw ValidationError("--repetitions must be at least 1") }
        guard passes >= 1 else { throw ValidationError("--passes must be at least 1") }
        for text in tolerances where BaselineComparison.parseTolerance(text) == nil {
            throw ValidationError("invalid tolerance '\(text)'; expected METRIC=10% or METRIC=0.1 for a time or memory column, such as wall_s=10%")
        }
        for option in runOptions {
            let name = option.split(separator: "=", maxSplits: 1).first.map(String.init) ?? option
            if Self.gateOwnedOptions.contains(name) {
                throw ValidationError(
                    "\(name) after -- is the gate's to set (each run is one repetition, quiet, to a CSV of the gate's): leave it out")
            }
        }
        for option in runOptions
        where ["--expect", "--expectations", "--strict", "--growth"].contains(option.split(separator: "=").first.map(String.init)) {
            throw ValidationError(
                "\(option) after -- would judge each run alone: give it before --, and the gate judges it on all the current build's runs")
        }
        if baseBench != nil, baseFolder != nil || baseRevision != nil {
            throw ValidationError("--base-bench names a built base: it takes neither --base-folder nor --base-revision")
        }
    }

    /// The rules, against the strategies the runs measure, as `bench run` would plan them.
    func check() throws {
        guard expectationOptions.isGiven else { return }
        try expectationOptions.check(try RunCommand.parse(runArguments).configurations())
    }

    func run() throws {
        InterruptHandler.install(note: "\nbench: stopping the gate; removing the base's tree and build (the same signal again quits at once)\n")
        let committed: ResultTable
        do {
            committed = try ResultTable(path: baseline, columns: [])
        } catch let error as ResultsInputError {
            throw CommandFailure.refused(error, doing: "cannot gate")
        }
        let workspace = try GateWorkspace(keeping: baseFolder)
        defer { workspace.remove() }
        let (base, label) = try baseBinary(committed.provenance, in: workspace)
        var runs = try GateRuns(
            base: base, current: ChildProcessExecutor.current().executable, runArguments: runArguments,
            folder: csvFolder.map(URL.init(fileURLWithPath:)) ?? workspace.runs)
        try runs.interleave(repetitions, passes: passes)
        try judge(runs, baseLabel: label)
    }

    /// The base's bench: given, or built from the revision the baseline (or --base-revision) names.
    private func baseBinary(_ provenance: ResultsProvenance, in workspace: GateWorkspace) throws -> (URL, String) {
        if let baseBench { return (URL(fileURLWithPath: baseBench), baseBench) }
        let named = baseRevision ?? provenance.revision
        guard !named.isEmpty else { throw CommandFailure.gate(.noRevision(baseline: baseline, csvVersion: provenance.csvVersion)) }
        guard !named.hasSuffix(BuildIdentity.dirtySuffix) else { throw CommandFailure.gate(.dirtyRevision(named, baseline: baseline)) }
        let folder = URL(fileURLWithPath: baseline).deletingLastPathComponent().path
        let base = try GateBase.resolve(named, near: folder.isEmpty ? "." : folder)
        let started = ContinuousClock.now
        let binary = try base.build(in: workspace.base, configuration: BuildIdentity.current.configuration)
        let seconds = Self.seconds(ContinuousClock.now - started)
        FileHandle.standardError.write(Data(String(format: "gate: base %@ built in %.0f s\n", String(base.revision.prefix(12)), seconds).utf8))
        return (binary, "\(base.revision.prefix(12)) (\(BuildIdentity.current.configuration), built here in \(Int(seconds.rounded())) s)")
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Prints both comparisons and ends with the gate's status.
    private func judge(_ runs: GateRuns, baseLabel: String) throws {
        var resolved = BaselineComparison.defaultTolerances
        for text in tolerances {
            if let (metric, value) = BaselineComparison.parseTolerance(text) { resolved[metric] = value }
        }
        let counts: BaselineComparison
        let timings: BaselineComparison
        do {
            counts = try BaselineComparison(baselinePaths: [baseline], currentPaths: runs.currentFiles, tolerances: [:])
            timings = try BaselineComparison(
                baselinePaths: runs.baseFiles, currentPaths: runs.currentFiles, tolerances: resolved, scope: .sideBySide, passes: passes)
        } catch let error as ResultsInputError {
            throw CommandFailure.refused(error, doing: "cannot gate")
        }
        let current = BuildIdentity.current
        // Markdown: a path and a machine's description are shown as written (MarkdownText).
        print("## bench gate\n")
        print(
            "Base \(MarkdownText.escape(baseLabel)) and current \(current.revision.isEmpty ? "build" : BuildIdentity.short(current.revision)) "
                + "(\(current.configuration)), \(repetitions) repetitions each" + (passes > 1 ? ", each the fastest of \(passes) passes" : "")
                + ", interleaved, on \(MarkdownText.escape(timings.currentProvenance.machineDescription)).\n")
        print("Counts against \(MarkdownText.escape(baseline)):\n")
        print(counts.markdown)
        print("Times and memory against the base, measured here:\n")
        print(timings.markdown, terminator: "")
        let broken = try judgeExpectations(runs)
        if counts.verdict == .regression || timings.verdict == .regression { throw ExitStatus.regression.exitCode }
        if let broken { throw broken }
        if counts.verdict == .improvementsOnly { throw ExitStatus.improvementsOnly.exitCode }
    }

    /// The rules judged on the current build's runs, each file a repetition, printed as Markdown;
    /// the failure they earn, if any.
    private func judgeExpectations(_ runs: GateRuns) throws -> CommandFailure? {
        guard expectationOptions.isGiven else { return nil }
        var rows: [ResultsRow] = []
        for (index, path) in runs.currentFiles.enumerated() {
            do {
                rows += try ReportInput(paths: [path]).runs.map { run in
                    var run = run
                    run.repetition = index + 1
                    return run
                }
            } catch let error as ResultsInputError {
                throw CommandFailure.refused(error, doing: "cannot judge the expectations")
            }
        }
        let (verdicts, failure) = try expectationOptions.judge(rows: rows)
        print("\nExpectations on the current build's \(runs.currentFiles.count) runs:\n")
        print(ExpectationReport.render(verdicts, markdown: true), terminator: "")
        return failure
    }
}
