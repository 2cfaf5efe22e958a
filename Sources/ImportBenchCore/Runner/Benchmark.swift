import Foundation
import ImportBenchPayload
import ImportBenchStrategies

/// Executes one measured import: in this process, or elsewhere (a child process, so peak memory
/// and allocator statistics belong to that run alone).
package typealias ImportExecutor = (ImportRun, _ progress: @escaping (Int) -> Void) throws -> ImportMeasurement

/// Measures the C reference's replay: in this process, or in a child process like the imports.
package typealias CReferenceExecutor = (CReference.Job) throws -> CReference.Measurement

/// Generates (or takes) the payload, works out the expected content once, prepares each method,
/// then runs every strategy in every repetition, interleaved (A B C A B C) so drift hits all alike.
package final class Benchmark {
    package let configuration: BenchmarkConfiguration
    /// A scenario no `ScenarioSource` names (one built in memory, as tests do); nil resolves the spec's at each run.
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
    /// nowhere else. The reference loads an empty store (SQLite's limit), refresh or not.
    /// `strategy` as prepared, when it was.
    func makeRun(
        of strategy: ImportMethod, _ payload: BenchmarkPayload, preloadPath: String?, databasePath: String, checkpoint: Bool
    ) -> ImportRun {
        var options = configuration.spec.options
        options.checkpoint = checkpoint
        var run = ImportRun(
            scenario: payload.scenario, payloadPath: payload.path, method: strategy, databasePath: databasePath,
            preloadPath: strategy.role.loadsPayloadAlone ? nil : preloadPath, options: options)
        run.payloadIdentity = payloadIdentity.map { identity in
            var identity = identity
            if strategy.role.loadsPayloadAlone { identity.preloadDigest = nil }
            return identity
        }
        return run
    }

    /// Every run goes through here: a command is a process of its own, measured from here (a child
    /// of bench would not know it); the others by the executor, in this process or a child.
    func execute(_ run: ImportRun, _ progress: @escaping (Int) -> Void) throws -> ImportMeasurement {
        if run.method.isOwnProcess { return try run.execute(progress: progress) }
        return try executor(run, progress)
    }

    static func stopIfInterrupted() throws {
        if ImportInterruption.isRequested { throw RunError.interrupted }
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
