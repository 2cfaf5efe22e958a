import Foundation
import ImportBenchStore

/// What to run: one run spec, through several strategies, several times.
package struct BenchmarkConfiguration {
    /// How every run imports; each run receives it with its payload and preload written as files.
    package var spec: RunSpec
    /// The ceiling is added when missing: every time is also given as a multiple of it.
    package var strategies: [ImportMethod]
    package var repetitions: Int
    /// Unmeasured rounds of every strategy first, so caches, the allocator and the file system are warm.
    package var warmup: Int
    /// Keep each run's database: the strategy's name is inserted before the extension.
    package var databasePath: String?
    /// Where the reference comes from, and the order strategies run and are listed in.
    package var catalog: StrategyCatalog

    package init(
        spec: RunSpec, strategies: [ImportMethod], repetitions: Int = 1, warmup: Int = 0, databasePath: String? = nil,
        catalog: StrategyCatalog = .builtIn
    ) {
        self.catalog = catalog
        self.spec = spec
        self.strategies = strategies
        self.repetitions = repetitions
        self.warmup = warmup
        self.databasePath = databasePath
    }

    /// A configuration of strategy types (bench's, a plug-in's, a test's).
    package init(
        spec: RunSpec, strategies: [any MeasuredMethod.Type], repetitions: Int = 1, warmup: Int = 0, databasePath: String? = nil,
        catalog: StrategyCatalog = .builtIn
    ) {
        self.init(
            spec: spec, strategies: strategies.map(ImportMethod.init), repetitions: repetitions, warmup: warmup,
            databasePath: databasePath, catalog: catalog)
    }

    /// Refuses what cannot run whatever the payload holds. The one place these rules live: the
    /// command line asks before it starts anything, the benchmark again for library callers.
    package func checkRequest() throws(RunRequestError) {
        let planned = plannedStrategies
        if spec.preload != nil, let reason = planned.lazy.compactMap(\.refreshRefusal).first {
            throw .refreshNotMeasurable(methods: planned.filter { $0.refreshRefusal == reason }.map(\.name), reason: reason)
        }
        if case .generated = spec.preload, case .file = spec.payload { throw .generatedPreloadWithRecordedPayload }
    }

    /// The strategies to run, the reference added when missing, in the catalog's order; a method the
    /// catalog does not know (a user's command, a test's type) after the catalog's designs and before
    /// the reference. In this process the given methods run; a measuring child process finds its
    /// strategy by name, in the catalog its executable builds (a command is measured from here).
    package var plannedStrategies: [ImportMethod] {
        var names = Set<String>()
        let given = strategies.filter { names.insert($0.name).inserted }
        let references = catalog.known.filter { $0.role == .reference && !names.contains($0.name) }
        // Twice the catalog's position, so a method it does not know fits in just before its first reference.
        let order = Dictionary(catalog.knownNames.enumerated().map { ($1, 2 * $0) }, uniquingKeysWith: { first, _ in first })
        let beforeReference = (catalog.known.firstIndex { $0.role == .reference } ?? catalog.known.count) * 2 - 1
        let planned = given + references
        func rank(_ method: ImportMethod) -> Int { order[method.name] ?? beforeReference }
        return planned.indices.sorted { (rank(planned[$0]), $0) < (rank(planned[$1]), $1) }.map { planned[$0] }
    }
}

/// What the benchmark tells its front end while it works.
package enum BenchmarkEvent {
    case generatingPayload(path: String)
    case readingExpectedContent
    /// A method prepares what its runs need (`MeasuredMethod.prepare`), untimed: `task` says what.
    case preparing(strategy: String, task: String)
    case runStarted(strategy: String, repetition: Int, index: Int, total: Int)
    case runProgress(strategy: String, occurrences: Int, expected: Int)
    /// A run has finished: its result, and every result of this benchmark so far, each with the C
    /// reference's time once its repetition's ceiling has run (for a file that keeps what finished).
    case runFinished(RunResult, soFar: [RunResult])
    /// The C reference replays the ceiling's rows (untimed for the run, outside every measurement).
    case replayingCReference(repetition: Int)
}

package struct BenchmarkOutcome: Sendable {
    package var results: [RunResult]
    package var expected: ExpectedContent
    /// What the reference run must hold: the measured payload alone, in an empty store.
    package var expectedWithoutPreload: ExpectedContent?
    /// Why the reference did not run, when a refresh payload names objects only the preload holds.
    package var referenceSkipped: String?
    /// Payload records every run left out under `--on-error skip`, by reason (`stops.txt: malformed row`).
    package var skippedRecords: [String: Int]
    /// The first few errors of records skipped under `--on-error skip`, as examples.
    package var skippedErrors: [PayloadError] = []
    package var payloadPath: String
    package var payloadBytes: Int64
    /// Every method as it was prepared for its runs, with what preparing it made (seed-copy: its store).
    package var preparations: [PreparedMethod] = []
    /// How the payload was read, for the header: the encoding `--encoding auto` chose per file.
    package var readingNotes: [String] = []
}

/// Executes one measured import: in this process, or elsewhere (a child process, so peak memory
/// and allocator statistics belong to that run alone).
package typealias ImportExecutor = (ImportRun, _ progress: @escaping (Int) -> Void) throws -> ImportMeasurement

/// Measures the C reference's replay: in this process, or in a child process like the imports.
package typealias CReferenceExecutor = (CReference.Job) throws -> CReference.Measurement

/// Generates (or takes) the payload, works out the expected content once, then runs every strategy
/// in every repetition, interleaved (A B C A B C) so drift hits all strategies alike.
package final class Benchmark {
    package let configuration: BenchmarkConfiguration
    /// A scenario no `ScenarioReference` names (one built in memory, as tests do); nil resolves the spec's at each run.
    let givenScenario: (any Scenario)?
    let executor: ImportExecutor
    let referenceExecutor: CReferenceExecutor
    /// The payload's hash and origin in the current `run()`, learnt while reading it for the
    /// expected content: every run's checkpoint records it.
    var payloadIdentity: PayloadIdentity?

    package init(
        configuration: BenchmarkConfiguration, scenario: (any Scenario)? = nil, executor: ImportExecutor? = nil,
        referenceExecutor: CReferenceExecutor? = nil
    ) {
        self.configuration = configuration
        givenScenario = scenario
        self.executor = executor ?? { run, progress in try run.execute(progress: progress) }
        self.referenceExecutor = referenceExecutor ?? CReference.measure
    }

    /// Runs the benchmark phase by phase: the payload in place, the content every run must end
    /// with, each method prepared and each kept store checked, the warm-up, then the measured runs
    /// (with the reference's replay) and their results.
    package func run(_ observe: (BenchmarkEvent) -> Void = { _ in }) throws -> BenchmarkOutcome {
        try configuration.checkRequest()
        payloadIdentity = nil
        // Held to the end: a second bench on the same kept stores stops here, naming this one.
        let locks = try configuration.plannedStrategies.compactMap { strategy in
            try keptDatabasePath(for: strategy.name).map { try StoreLock(storePath: $0) }
        }
        let runDirectory = try RunDirectory.create()
        defer {
            runDirectory.remove()
            withExtendedLifetime(locks) {}
        }
        let payload = try preparePayload(in: runDirectory.url, observe)
        let expectation = try expectedContent(of: payload, observe)
        let preparations = try prepareMethods(for: payload, expectation, observe)
        let strategies = preparations.map(\.method)
        try checkKeptStores(of: strategies, payload, preloadPath: expectation.preloadPath)
        try warmUp(strategies, payload, preloadPath: expectation.preloadPath)
        let payloadBytes = PayloadSize.bytes(at: payload.path)
        let results = try measureAll(strategies, payload, expectation, payloadBytes: payloadBytes, observe)
        return BenchmarkOutcome(
            results: results, expected: expectation.expected, expectedWithoutPreload: expectation.expectedWithoutPreload,
            referenceSkipped: expectation.referenceSkipped, skippedRecords: expectation.skippedRecords,
            skippedErrors: expectation.skippedErrors, payloadPath: payload.path, payloadBytes: payloadBytes, preparations: preparations,
            readingNotes: expectation.readingNotes)
    }

    /// The run of `strategy` in this benchmark: every setting comes from the configuration here, and
    /// nowhere else. The reference is plain inserts into an empty store, refresh or not.
    /// `strategy` as prepared, when it was.
    func makeRun(
        of strategy: ImportMethod, _ payload: BenchmarkPayload, preloadPath: String?, databasePath: String, checkpoint: Bool
    ) -> ImportRun {
        var options = configuration.spec.options
        options.checkpoint = checkpoint
        var run = ImportRun(
            scenario: payload.scenario, payloadPath: payload.path, strategy: strategy, databasePath: databasePath,
            preloadPath: strategy.role == .reference ? nil : preloadPath, options: options)
        run.payloadIdentity = payloadIdentity.map { identity in
            var identity = identity
            if strategy.role == .reference { identity.preloadDigest = nil }
            return identity
        }
        return run
    }

    /// Every run goes through here: a command is a process of its own, measured from here (a child
    /// of bench would not know it); the others by the executor, in this process or a child.
    func execute(_ run: ImportRun, _ progress: @escaping (Int) -> Void) throws -> ImportMeasurement {
        if run.strategy.isOwnProcess { return try run.execute(progress: progress) }
        return try executor(run, progress)
    }

    static func stopIfInterrupted() throws {
        if ImportInterruption.isRequested { throw Interrupted() }
    }

    /// Where the strategy's store is kept, when `databasePath` asks to keep them.
    package func keptDatabasePath(for strategy: String) -> String? {
        configuration.databasePath.map { kept in
            let url = URL(fileURLWithPath: kept)
            let stem = url.deletingPathExtension().lastPathComponent
            let ext = url.pathExtension.isEmpty ? "sqlite" : url.pathExtension
            return url.deletingLastPathComponent().appendingPathComponent("\(stem)-\(strategy).\(ext)").path
        }
    }

    func databasePath(for strategy: String, in workDirectory: URL) -> String {
        keptDatabasePath(for: strategy) ?? workDirectory.appendingPathComponent("\(strategy).sqlite").path
    }
}
