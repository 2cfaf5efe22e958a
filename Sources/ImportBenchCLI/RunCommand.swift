import ArgumentParser
import Foundation
import ImportBenchCore
import ImportBenchExpectations
import ImportBenchPayload
import ImportBenchReport
import ImportBenchStrategies

/// `bench run`: import one payload with each chosen strategy, verify, report.
struct RunCommand: ParsableCommand, CheckedCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Import a payload with each chosen strategy, verify the data, report counts, time and memory.",
        discussion: """
            Each run imports into a fresh database file. The ceiling (SQLite's limit: the unique objects \
            into an empty store, several rows to an INSERT, indexes built after the rows) always runs too, \
            so every time is also given as a multiple of it.

            Exit status: 0 all runs valid; 1 an import failed or the input is unusable; 3 a strategy wrote \
            data that differs from the payload's; 6 an expectation (--expect, --expectations) broken, or \
            undecided with --strict.
            """
    )

    @OptionGroup var scenarioOptions: ScenarioOptions

    @OptionGroup(title: "Payload reading") var readingOptions: PayloadReadingOptions

    @Option(
        name: .customLong("strategy"),
        parsing: .upToNextOption,
        help: ArgumentHelp(
            "Strategies to run, repeated or comma-separated: \(BenchCommand.catalog.names.joined(separator: ", ")), or all; or a pitfall run only by name (\(BenchCommand.catalog.pitfalls.map { $0.name }.joined(separator: ", "))), to see what it does to the data; or \(Self.alternativesHelp). Default: all.",
            valueName: "name"),
        transform: RunCommand.parseStrategies)
    var strategies: [[ImportMethod]] = [BenchCommand.catalog.all]

    @Option(
        name: .customLong("command"),
        help: ArgumentHelp(
            "A program of yours as a strategy, NAME=COMMAND, repeatable: run by /bin/sh with {payload} and {db} replaced by the paths (also in BENCH_PAYLOAD and BENCH_DB), measured as a whole process, counted through the shared libsqlite3, verified like the built-ins (docs/commands.md).",
            valueName: "name=command"),
        transform: RunCommand.parseCommand)
    var commands: [CommandMethod] = []

    @Option(
        name: .customLong("command-timeout"),
        help: ArgumentHelp(
            "Stop a --command that runs longer than this (SIGTERM to its process group, SIGKILL 2 s later) and report it as failed.",
            valueName: "seconds"))
    var commandTimeout: Double?

    @Option(
        name: .customLong("batch-size"),
        help: ArgumentHelp(
            "Occurrences per transaction, or 'all' for one transaction; a list such as 100,1000,all sweeps them. The ceiling always uses one. Default: \(BatchSize.default).",
            valueName: "n|all"),
        transform: RunCommand.parseBatchSizes)
    var givenBatchSizes: [BatchSize]?

    /// The batch sizes asked for, the default alone when none were: whether any were given matters to `--preset`.
    var batchSizes: [BatchSize] { givenBatchSizes ?? [BatchSize.default] }

    @Option(
        name: .customLong("decode-ahead"),
        help: ArgumentHelp(
            "Decode each next batch on a second thread while the strategy writes the current one, as an importer that parses on a background queue does: on, off, or off,on to run both, one after the other like a --batch-size list (each with its own ceiling, so compare the multiples). The time the import waits for records is then its decode time; peak allocation is left empty (records are freed on the other thread) and peak RSS stands for it. The C reference and commands are untouched; the ceiling decodes ahead too, but writes only at its end, so it gains nothing. Default: off.",
            valueName: "off|on[,...]"),
        transform: RunCommand.parseDecodeAhead)
    var givenDecodeAhead: [Bool]?

    @Option(
        help: ArgumentHelp(
            "Run a named matrix instead of the scenario, scale, batch, strategy and store options (which it refuses beside it): \(BenchmarkPreset.allCases.map { "\($0.rawValue) (\($0.summary))" }.joined(separator: "; ")).",
            valueName: "name"))
    var preset: BenchmarkPreset?

    @OptionGroup(title: "Expectations")
    var expectationOptions: ExpectationOptions

    @Option(
        name: .customLong("growth"),
        help: ArgumentHelp(
            "Test with a payload this many times as large as the one asked for, as the advice to test at twice the size goes: runs --scale S and S times this factor (2x: 1x and 2x), and holds every strategy's fetch and statement counts to grow at most linearly, growth(strategy.fetch_count) <= 1.05 and the same for statement_count, unless an --expect or --expectations rule on the same metric says otherwise. Not with --payload, whose size is fixed, nor with a --scale list.",
            valueName: "factor"),
        transform: { text in
            guard let scale = Scale(parsing: text), scale.factor > 1 else { throw ValidationError("--growth needs a factor above 1, such as 2x") }
            return scale
        })
    var growth: Scale?

    @Option(help: ArgumentHelp("Times each strategy runs; strategies are interleaved within each repetition.", valueName: "n"))
    var repetitions: Int = 1

    @Option(help: ArgumentHelp("Unmeasured rounds of every strategy before the first repetition.", valueName: "n"))
    var warmup: Int = 0

    @Option(
        help: ArgumentHelp(
            "Import this recorded payload (a file of the scenario's shape; a GTFS directory for transit) instead of generating one.",
            valueName: "path"))
    var payload: String?

    @Option(
        help: ArgumentHelp(
            "Fill the store first, untimed and uncounted, so the measured import is a refresh: an earlier payload file, or overlap=X,changed=Y to generate one holding X of the payload's objects, Y of those with other values (objects are channels for chat, trips for transit). The ceiling still runs into an empty store.",
            valueName: "file|spec"),
        transform: { try RunCommand.parsePreload($0) })
    var preload: PreloadSpec?

    @Option(
        help: ArgumentHelp(
            "Keep the databases: each strategy writes PATH with its name before the extension (store.sqlite -> store-naive.sqlite). Default: temporary files, removed.",
            valueName: "path"))
    var db: String?

    @Option(
        help: ArgumentHelp(
            "Write the per-run CSV here. Default: run-<UTC timestamp>.csv in $IMPORTBENCH_RESULTS_DIR, else in ./Results.",
            valueName: "path"))
    var csv: String?

    @Option(
        help: ArgumentHelp(
            "Keys per SELECT ... WHERE key IN (...) for prewarm and the plug-ins that read it (capped at SQLite's variable limit).",
            valueName: "n"))
    var prewarmChunk: Int = StrategySettings.defaultKeysPerFetch

    @Option(
        help: ArgumentHelp(
            "What goes to standard output: an aligned table, Markdown for a pull-request comment, or JSON with the CSV's columns.",
            valueName: "format"))
    var format: OutputFormat = .table

    @Flag(
        help: ArgumentHelp(
            "Record each committed batch in the store (needs --db), so an import that is killed or interrupted continues where it stopped when the same command runs again. A resumed run's counts and times cover only the rest; the table marks it."
        ))
    var checkpoint = false

    @Flag(help: "Continue the checkpointed imports in --db: --checkpoint, refusing to start when no store is there.")
    var resume = false

    @Flag(
        help: ArgumentHelp(
            "Discard an unfinished checkpointed import in --db and start again. Without it, bench refuses to run over one that this run would not continue (other settings, another payload, or no --resume), and says what differs."
        ))
    var restart = false

    @Option(
        help: ArgumentHelp(
            "A payload record that cannot be read (wrong type, missing key, ragged CSV row): fail stops the import with its location; skip leaves it out of every run alike, counts it and shows the first errors. Damage that loses the file's structure (truncation) always stops.",
            valueName: "fail|skip"))
    var onError: PayloadErrorPolicy = .fail

    @Option(
        help: ArgumentHelp(
            "The store's journal: wal lets readers go on while a batch writes; delete (a rollback journal) locks them out while it commits.",
            valueName: "wal|delete"))
    var journal: StoreSettings.Journal = .wal

    @Option(
        help: ArgumentHelp(
            "How often SQLite waits for the disk: off (never; fastest, a power cut may corrupt), normal (at checkpoints in WAL), full (every commit).",
            valueName: "off|normal|full"))
    var synchronous: StoreSettings.Synchronous = .normal

    @Option(
        name: .customLong("pragma"),
        help: ArgumentHelp(
            "A SQLite setting for the store and every connection that imports into it (the ceiling's and the C reference's too), repeatable: temp_store, cache_size, mmap_size, page_size, locking_mode, wal_autocheckpoint or journal_size_limit. A list of values sweeps them like --batch-size: --pragma temp_store=default,memory --pragma cache_size=-2000,-65536 runs the four combinations, each named in the table and the CSV's pragmas column.",
            valueName: "name=value[,value...]"))
    var pragma: [String] = []

    /// Every combination of the `--pragma` values, in the order given; one empty one without them.
    func pragmaCombinations() throws -> [[StorePragma]] {
        var combinations: [[StorePragma]] = [[]]
        var named: Set<StorePragma.Name> = []
        for text in pragma {
            let values: [StorePragma]
            do {
                values = try StorePragma.sweep(parsing: text)
            } catch {
                throw CommandFailure.usage(error)
            }
            guard let name = values.first?.name, named.insert(name).inserted else {
                throw ValidationError(
                    "--pragma \(text): \(values.first?.name.rawValue ?? text) is given twice; list its values once, separated by commas")
            }
            combinations = combinations.flatMap { combination in values.map { combination + [$0] } }
        }
        return combinations
    }

    @Option(
        name: .customLong("count-at"),
        help: ArgumentHelp(
            "Where statements are counted: connection (bench's own connection counts what goes through it) or sqlite (a trace on every connection the import's process opens, so a plug-in's own GRDB or C connection is counted too; it costs a callback per statement). Both give the same counts. Default: sqlite when a plug-in's strategy runs, so every strategy of the run pays the same, else connection.",
            valueName: "connection|sqlite"))
    var countAt: CountingLevel?

    @Option(
        help: ArgumentHelp(
            "While each import runs, a second connection runs the scenario's screen query (chat: the latest 50 messages of a channel with their authors; quakes: the 100 most recent; transit: the next departures at a stop; products: a category's cheapest) this many times a second, as an app's view would. The table adds the reader's p99 and max latency and the longest write transaction; the CSV adds every reader column. A frame is 16 ms: compare --journal wal and delete, and batch sizes, to see what keeps p99 under it. seed-copy is not probed: until its copy is in place there is no store to read.",
            valueName: "hz"))
    var probeReads: Int?

    @Option(name: .customLong("seed-db"), help: ArgumentHelp(Self.seedDBHelp, valueName: "path"))
    var seedDB: String?

    @Flag(help: "No progress on stderr.")
    var quiet = false

    @Flag(help: "Replace a file at --csv that is not a results CSV bench wrote (never a file this run reads).")
    var force = false

    @Flag(
        name: .customLong("isolate"), inversion: .prefixedNo,
        help:
            "Run each measured import, and the C reference's replay, in a child process of its own, so its peak memory and allocator statistics are its own and it runs single-threaded as an app's importer would (default); --no-isolate runs them in this process."
    )
    var isolate = true

    enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
        case table, markdown, json
    }

    /// What the lower layers refuse: the scenario or mapping, `--pragma`, and the runs as planned.
    func check() throws {
        try scenarioOptions.check()
        _ = try pragmaCombinations()
        let configurations = try configurations()
        for configuration in configurations { try configuration.checkRequest() }
        try expectationOptions.check(configurations)
    }

    func validate() throws {
        try validatePreset()
        // A `--pragma` that does not parse is `check()`'s to report, with its own error.
        let pageSizes = Set(((try? pragmaCombinations()) ?? [[]]).map { StoreSettings(pragmas: $0).pageSize })
        if let seedDB, pageSizes.count > 1 {
            throw ValidationError(
                "--seed-db \(seedDB) has one page size, and --pragma sweeps page_size: give one page_size, or leave --seed-db out so seed-copy builds a store for each"
            )
        }
        if let mapping = scenarioOptions.mapping, payload == nil, scenarioOptions.from == nil {
            throw ValidationError("--mapping \(mapping) reads your payloads: give one with --payload FILE, or a sample to scale with --from FILE")
        }
        if let from = scenarioOptions.from, let payload {
            throw ValidationError("--from \(from) and --payload \(payload) both say what to import: give one")
        }
        try validateSeedCopy()
        if let commandTimeout, !(commandTimeout > 0) { throw ValidationError("--command-timeout must be a positive number of seconds") }
        if commandTimeout != nil, commands.isEmpty { throw ValidationError("--command-timeout applies to a --command: give one") }
        #if !os(Linux)
            if !commands.isEmpty {
                throw ValidationError(
                    "--command needs Linux: the counting library is preloaded with LD_PRELOAD, and the command's group is stopped with bench through the parent-death signal"
                )
            }
        #endif
        if !commands.isEmpty, preset != nil { throw ValidationError("--command runs with --scenario or --mapping, not with --preset") }
        if !commands.isEmpty, checkpoint || resume {
            throw ValidationError(
                "--checkpoint and --resume record bench's own batches; a --command commits its own and cannot be resumed: run it without them")
        }
        guard repetitions >= 1 else { throw ValidationError("--repetitions must be at least 1") }
        guard warmup >= 0 else { throw ValidationError("--warmup must be 0 or more") }
        guard prewarmChunk >= 1 else { throw ValidationError("--prewarm-chunk must be at least 1") }
        if let probeReads, !(1...1000).contains(probeReads) {
            throw ValidationError("--probe-reads must be between 1 and 1000 queries a second (60 is one per frame)")
        }
        try validateStoreOptions()
        try validateGrowth()
    }

    /// One `--strategy` value: names, comma-separated, or `all`. Parsed once, with the options.
    static func parseStrategies(_ text: String) throws -> [ImportMethod] {
        try text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { name -> [ImportMethod] in
            if name == "all" { return BenchCommand.catalog.all }
            guard let strategy = BenchCommand.catalog.strategy(named: name) else {
                throw ValidationError(
                    "unknown strategy '\(name)'; choose from \((BenchCommand.catalog.knownNames + ["all"]).joined(separator: ", "))")
            }
            return [strategy]
        }
    }

    /// One `--command` value: NAME=COMMAND.
    static func parseCommand(_ text: String) throws -> CommandMethod {
        // Its own error, which ArgumentParser shows after the option it was given to (exit 64).
        try CommandMethod(parsing: text)
    }

    /// The commands as methods, with the counting library preloaded into them.
    func commandMethods() throws -> [ImportMethod] {
        guard !commands.isEmpty else { return [] }
        var names = Set(BenchCommand.catalog.knownNames)
        for command in commands where !names.insert(command.name).inserted {
            throw ValidationError(ImportError.nameTaken(command.name, origin: .command).description)
        }
        let counter: String
        do {
            counter = try CounterLibrary.path(in: ChildProcessExecutor.current().executable.deletingLastPathComponent())
        } catch {
            throw CommandFailure.failed(error)
        }
        return commands.map { $0.method(timeout: commandTimeout, counter: counter) }
    }

    /// `--batch-size`: one size or a list to sweep.
    static func parseBatchSizes(_ text: String) throws -> [BatchSize] {
        try text.split(separator: ",").map { part in
            guard let size = BatchSize(parsing: String(part)) else {
                throw ValidationError("invalid batch size '\(part)'; expected a positive number of occurrences or 'all'")
            }
            return size
        }
    }

    static func parseDecodeAhead(_ text: String) throws -> [Bool] {
        var values: [Bool] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let value = ["off": false, "on": true][String(part)] else {
                throw ValidationError("invalid --decode-ahead value '\(part)'; expected off, on, or both as off,on")
            }
            guard !values.contains(value) else { throw ValidationError("--decode-ahead \(text): \(part) is given twice") }
            values.append(value)
        }
        return values
    }

    static func parsePreload(_ text: String) throws -> PreloadSpec {
        try PreloadSpec(parsing: text)
    }

    /// Every strategy asked for, once each, in the order first named.
    var resolvedStrategies: [ImportMethod] {
        var seen = Set<String>()
        return strategies.joined().filter { seen.insert($0.name).inserted }
    }

    /// The preset's matrix, or the cross product of the scales and batch sizes given.
    func configurations() throws -> [BenchmarkConfiguration] {
        if let preset {
            return preset.configurations(catalog: BenchCommand.catalog).map {
                var configuration = $0
                configuration.repetitions = repetitions
                configuration.warmup = warmup
                configuration.catalog = BenchCommand.catalog
                if let countAt { configuration.spec.options.counting = countAt }
                return configuration
            }
        }
        // Prewarm's chunk is its own setting, carried by each method rather than by every run's options.
        let strategies = (adoptingSeedDB(resolvedStrategies) + (try commandMethods())).map {
            $0.configured([StrategySettings.keysPerFetchName: String(prewarmChunk)])
        }
        let catalog = BenchCommand.catalog
        // One spec for how every run imports; the sweep changes only its payload's scale and its batch size.
        let base = RunSpec(
            scenario: scenarioOptions.source,
            payload: payload.map(PayloadSource.file) ?? .generated(scale: scenarioOptions.resolvedScale, seed: scenarioOptions.seed),
            preload: preload,
            options: RunOptions(
                checkpoint: checkpoint || resume, onError: onError,
                store: StoreSettings(journal: journal, synchronous: synchronous), probeReadsHz: probeReads,
                limits: readingOptions.limits, restart: restart, encoding: readingOptions.encoding,
                missingReference: readingOptions.missingReference, counting: countAt ?? .needed(by: strategies)))
        let pragmaSettings = try pragmaCombinations()
        return sweptScales.flatMap { scale in
            batchSizes.flatMap { batchSize in
                pragmaSettings.flatMap { pragmas in
                    (givenDecodeAhead ?? [false]).map { decodeAhead in
                        var spec = base
                        spec.payload = base.payload.scaled(to: scale)
                        spec.options.batchSize = batchSize
                        spec.options.store.pragmas = pragmas
                        spec.options.decodeAhead = decodeAhead
                        return BenchmarkConfiguration(
                            spec: spec, strategies: strategies, repetitions: repetitions, warmup: warmup, databasePath: db, catalog: catalog)
                    }
                }
            }
        }
    }

    func run() throws {
        InterruptHandler.install()
        // Runs killed outright (SIGKILL) could not remove their temporary directories.
        RunDirectory.removeAbandoned()
        let configurations = try configurations()
        let csvPath = csv ?? Self.defaultCSVPath()
        try preflight(configurations, csvPath: csvPath)
        try checkResumable(configurations)
        let file = ResultsFileWriter(path: csvPath)
        var results: [RunResult] = []
        for configuration in configurations {
            let outcome = try measure(configuration, after: results, writingTo: file)
            show(outcome, configuration)
            results += outcome.results
            file.write(results)
        }
        try finish(results, csvPath: csvPath)
    }

    /// `--resume` needs a store to resume: one of the kept stores the runs would write must exist.
    private func checkResumable(_ configurations: [BenchmarkConfiguration]) throws {
        guard resume, let db else { return }
        let stores = configurations.flatMap { configuration in
            configuration.plannedStrategies.map { Benchmark(configuration: configuration).keptDatabasePath(for: $0.name) ?? db }
        }
        guard stores.contains(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw CommandFailure.failed("--resume: no store to resume at \(stores.joined(separator: ", ")); run without --resume to start")
        }
    }

    /// Runs one configuration's benchmark, its progress shown, every finished run written to `file`
    /// after those of earlier configurations.
    private func measure(
        _ configuration: BenchmarkConfiguration, after earlier: [RunResult], writingTo file: ResultsFileWriter
    ) throws -> BenchmarkOutcome {
        let progress = ProgressReporter(enabled: !quiet)
        defer { progress.finish() }
        do {
            let executor = isolate ? ChildProcessExecutor.current() : nil
            return try Benchmark(
                configuration: configuration, executor: executor.map { child in { run, progress in try child.execute(run, progress: progress) } },
                referenceExecutor: executor.map { child in { job in try child.replay(job) } }
            ).run { event in
                progress.observe(event)
                if case .runFinished(_, let soFar) = event { file.write(earlier + soFar) }
            }
        } catch {
            throw Self.failure(for: error, finishedRuns: file.rowsWritten, csvPath: file.path)
        }
    }

    /// The configuration's header and table, as `--format` asks (JSON is printed once, at the end).
    private func show(_ outcome: BenchmarkOutcome, _ configuration: BenchmarkConfiguration) {
        switch format {
        case .table:
            print(header(outcome, configuration))
            print(SummaryTable.render(outcome.results))
        case .markdown:
            let quoted = header(outcome, configuration).split(separator: "\n").map { "> " + MarkdownText.escape(String($0)) }
            print(quoted.joined(separator: "\n") + "\n")
            print(SummaryTable.renderMarkdown(outcome.results))
        case .json:
            break
        }
    }

    /// Prints what spans every configuration (JSON, the growth table), writes the results file a
    /// last time, judges the expectations, and fails the command if it was interrupted, a run's
    /// data differs, or an expectation is not held (in that order of precedence).
    private func finish(_ results: [RunResult], csvPath: String) throws {
        if format == .json {
            print(try JSONReport.render(results), terminator: "")
        } else if let growth = GrowthTable.render(results, markdown: format == .markdown) {
            print(growth, terminator: "")
        }
        do {
            try CSVReport.write(results, to: csvPath)
        } catch {
            throw CommandFailure.failed("cannot write CSV to \(csvPath): \(error.localizedDescription)")
        }
        FileHandle.standardError.write(Data("results: \(csvPath)\n".utf8))
        let (verdicts, broken) = try expectationOptions.judge(results, implied: growthRules(try configurations()))
        if !verdicts.isEmpty { try writeExpectations(verdicts, besideResults: csvPath) }
        if ImportInterruption.isRequested {
            throw CommandFailure.interrupted("interrupted after the last import had finished; every result above is complete and written")
        }
        let invalid = results.filter { !$0.valid }
        if !invalid.isEmpty {
            let lines = invalid.map {
                "\($0.scenario) \($0.scale) \($0.strategy) (repetition \($0.repetition)): \($0.differences.joined(separator: "; "))"
            }
            throw CommandFailure.invalid("data differs from the payload's:\n  " + lines.joined(separator: "\n  "))
        }
        if let broken { throw broken }
    }

    /// The core's lines about the payload and the runs, around the reporters' lines about the harness.
    private func header(_ outcome: BenchmarkOutcome, _ configuration: BenchmarkConfiguration) -> String {
        outcome.payloadLines(for: configuration) + SummaryTable.harnessLines(outcome.results) + outcome.runNotes(for: configuration)
    }

    /// The exit status a failure earns: 128 + the signal's number for a stop, 1 for the rest. The
    /// message says where the runs that finished before it are kept, if any did.
    static func failure(for error: any Error, finishedRuns: Int, csvPath: String) -> CommandFailure {
        let interrupted = (error as? RunError)?.isInterruption == true
        let kept =
            finishedRuns == 0
            ? nil : "the \(finishedRuns) run\(finishedRuns == 1 ? "" : "s") that finished \(finishedRuns == 1 ? "is" : "are") in \(csvPath)"
        let message =
            interrupted && (error as? RunError)?.stop == nil
            ? "interrupted between imports; " + (kept ?? "nothing was written")
            : String(describing: error) + (kept.map { "\n  \($0)" } ?? "")
        return interrupted ? .interrupted(message) : .failed(message)
    }

    static func defaultCSVPath() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let directory = ProcessInfo.processInfo.environment["IMPORTBENCH_RESULTS_DIR"] ?? "Results"
        return "\(directory)/run-\(formatter.string(from: Date())).csv"
    }
}

extension BenchmarkPreset: ExpressibleByArgument {}
extension PayloadErrorPolicy: ExpressibleByArgument {}
extension StoreSettings.Journal: ExpressibleByArgument {}
extension StoreSettings.Synchronous: ExpressibleByArgument {}
extension CountingLevel: ExpressibleByArgument {
    /// Only the levels a run can ask for; the others say what a command's counts were.
    package init?(argument: String) {
        guard let level = CountingLevel(rawValue: argument), CountingLevel.selectable.contains(level) else { return nil }
        self = level
    }

    package static var allValueStrings: [String] { selectable.map(\.rawValue) }
}
