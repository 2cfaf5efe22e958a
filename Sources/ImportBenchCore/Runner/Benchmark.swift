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

    package func run(_ observe: (BenchmarkEvent) -> Void = { _ in }) throws -> BenchmarkOutcome {
        try configuration.checkRequest()
        payloadIdentity = nil
        // Held to the end: a second bench on the same kept stores stops here, naming this one.
        let locks = try configuration.plannedStrategies.compactMap { strategy in
            try keptDatabasePath(for: strategy.name).map { try StoreLock(storePath: $0) }
        }
        let runDirectory = try RunDirectory.create()
        let workDirectory = runDirectory.url
        defer {
            runDirectory.remove()
            withExtendedLifetime(locks) {}
        }

        let spec = configuration.spec
        let scenario = try givenScenario ?? spec.scenario.resolve()
        let payloadPath: String
        switch spec.payload {
        case .file(let recorded):
            try PayloadPath.check(recorded)
            payloadPath = recorded
        case .generated(let scale, let seed):
            payloadPath = scenario.generatedPayloadPath(in: workDirectory, scale: scale, seed: seed)
            observe(.generatingPayload(path: payloadPath))
            try PreparationError.during("generating the payload", in: workDirectory.path) {
                try scenario.generate(scale: scale.factor, seed: seed, to: payloadPath)
            }
        }

        try Self.stopIfInterrupted()
        observe(.readingExpectedContent)
        let scratchPath = workDirectory.appendingPathComponent("expected.sqlite").path
        let preloadPath = try resolvePreload(of: scenario, in: workDirectory)
        // Every run reads the payload through the same reader, so what it skips is the same for all.
        // Read whole here, it is hashed on the way: checkpoints record what they were made from.
        var preloadReading = spec.options.reading
        preloadReading.hasher = preloadPath == nil ? nil : PayloadHasher()
        var payloadReading = spec.options.reading
        payloadReading.hasher = PayloadHasher()
        // Under a missing-reference policy a refresh's payload may name what the preload stores. A
        // missing preload is reported below; a bad one is handled as a bad payload.
        if let preloadPath, FileManager.default.fileExists(atPath: preloadPath) {
            do {
                payloadReading = try scenario.reading(payloadReading, afterPreload: preloadPath)
            } catch let error where error is PayloadError || error is ImportError {
                throw try importBadPayload(error, scenario: scenario, payloadPath: payloadPath, preloadPath: preloadPath, in: workDirectory, observe)
            }
        }
        let payloadReader = try scenario.openPayload(path: payloadPath, reading: payloadReading)
        let expected: ExpectedContent
        let expectedWithoutPreload: ExpectedContent?
        let referenceSkipped: String?
        do {
            (expected, expectedWithoutPreload, referenceSkipped) = try PreparationError.during(
                "working out the expected content", in: workDirectory.path
            ) {
                guard let preloadPath else {
                    let expected = try ExpectedContent.build(schema: scenario.schema, reader: payloadReader, scratchPath: scratchPath)
                    return (expected, expected, nil)
                }
                guard FileManager.default.fileExists(atPath: preloadPath) else {
                    throw PayloadError(file: preloadPath, byteOffset: nil, path: nil, expected: "a readable preload payload", found: "no such file")
                }
                let expected = try ExpectedContent.build(
                    schema: scenario.schema, preload: scenario.openPayload(path: preloadPath, reading: preloadReading),
                    reader: payloadReader, scratchPath: scratchPath)
                // A refresh may name objects only the preload holds; plain inserts into an empty store
                // cannot. Under a missing-reference policy they can: the ceiling, which loads the
                // payload alone, then stubs or drops what only the preload holds, as the policy says
                // for an empty store.
                do {
                    let alone = try ExpectedContent.build(
                        schema: scenario.schema, reader: scenario.openPayload(path: payloadPath, reading: spec.options.reading),
                        scratchPath: scratchPath)
                    return (expected, alone, nil)
                } catch let error as ImportError {
                    return (expected, nil, "the payload alone cannot be loaded into an empty store (\(error))")
                }
            }
        } catch let error where error is PayloadError || error is ImportError {
            throw try importBadPayload(error, scenario: scenario, payloadPath: payloadPath, preloadPath: preloadPath, in: workDirectory, observe)
        }
        let skippedRecords = payloadReader.skippedRecords
        let skippedErrors = payloadReader.skippedErrors
        // Under --on-error skip, a payload whose every record was skipped would import nothing and
        // look like a success.
        if expected.occurrences == 0, !skippedRecords.isEmpty {
            throw PayloadError.everyRecordSkipped(file: payloadPath, skipped: skippedRecords, first: skippedErrors.first)
        }
        if let digest = payloadReading.hasher?.digest {
            payloadIdentity = PayloadIdentity(
                source: spec.payload.generator.map { "generated at \($0.scale), seed \($0.seed)" } ?? "recorded",
                digest: digest, preloadDigest: preloadReading.hasher?.digest)
        }
        let preparations = try configuration.plannedStrategies.filter {
            referenceSkipped == nil || $0.role != .reference
        }.map { method in
            try withoutActuallyEscaping(observe) { observe in
                try method.prepare(for: MethodPreparation(
                    scenario: scenario, payloadPath: payloadPath, payload: spec.payload, reading: spec.options.reading,
                    workDirectory: workDirectory, announce: { observe(.preparing(strategy: method.name, task: $0)) }))
            }
        }
        let strategies = preparations.map(\.method)
        // Before the first import: no kept store is replaced that bench did not make, and no
        // unfinished checkpoint is discarded that the user did not ask to discard.
        for strategy in strategies where keptDatabasePath(for: strategy.name) != nil {
            try makeRun(
                of: strategy, scenario: scenario, payloadPath: payloadPath, preloadPath: preloadPath,
                databasePath: databasePath(for: strategy.name, in: workDirectory), checkpoint: spec.options.checkpoint
            ).checkStore()
        }
        let total = strategies.count * configuration.repetitions
        var results: [RunResult] = []
        for _ in 0..<max(0, configuration.warmup) {
            for strategy in strategies {
                let databasePath = workDirectory.appendingPathComponent("warmup-\(strategy.name).sqlite").path
                try Self.stopIfInterrupted()
                // A warm-up store is scratch: nothing to resume.
                let run = makeRun(
                    of: strategy, scenario: scenario, payloadPath: payloadPath, preloadPath: preloadPath, databasePath: databasePath,
                    checkpoint: false)
                _ = try execute(run, { _ in })
                DatabaseFile.remove(databasePath)
            }
        }
        let payloadBytes = PayloadSize.bytes(at: payloadPath)
        // Per repetition, the C reference's time for the rows that repetition's ceiling wrote.
        var cReference: [Int: CReference.Measurement] = [:]
        for repetition in 1...max(1, configuration.repetitions) {
            for strategy in strategies {
                try Self.stopIfInterrupted()
                observe(.runStarted(strategy: strategy.name, repetition: repetition, index: results.count + 1, total: total))
                let databasePath = self.databasePath(for: strategy.name, in: workDirectory)
                let isReference = strategy.role == .reference
                let run = makeRun(
                    of: strategy, scenario: scenario, payloadPath: payloadPath, preloadPath: preloadPath, databasePath: databasePath,
                    checkpoint: spec.options.checkpoint)
                let target = isReference ? (expectedWithoutPreload ?? expected) : expected
                var measurement = try withoutActuallyEscaping(observe) { observe in
                    try execute(run) { occurrences in
                        observe(.runProgress(strategy: strategy.name, occurrences: occurrences, expected: expected.occurrences))
                    }
                }
                // A process of its own (a command) reads the payload itself: its records are the payload's.
                if strategy.isOwnProcess { measurement.occurrences = target.occurrences }
                let differences = measurement.digest.differences(from: target.digest)
                if strategy.role == .reference, differences.isEmpty {
                    observe(.replayingCReference(repetition: repetition))
                    cReference[repetition] = try PreparationError.during("replaying the C reference", in: workDirectory.path) {
                        try CReference.replay(
                            store: databasePath, digest: measurement.digest, schema: scenario.schema, settings: spec.options.store,
                            scratchPath: workDirectory.appendingPathComponent("c-reference.sqlite").path, measuring: referenceExecutor
                        )
                    }
                }
                if configuration.databasePath == nil { DatabaseFile.remove(databasePath) }
                var result = RunResult(
                    scenario: scenario.name, strategy: strategy.name, scale: spec.payload.scaleLabel,
                    seed: spec.payload.generator?.seed ?? 1, batchSize: spec.options.batchSize, repetition: repetition,
                    measurement: measurement, uniqueRecords: target.uniqueObjects, outcome: target.outcome,
                    preload: isReference ? nil : spec.preload?.description, digest: measurement.digest.value,
                    valid: differences.isEmpty && measurement.digest == target.digest, differences: differences,
                    sqliteVersion: Connection.sqliteVersion, benchVersion: BenchVersion.current, settings: spec.options.store,
                    payloadBytes: payloadBytes)
                result.role = strategy.role
                results.append(result)
                for index in results.indices where results[index].repetition == repetition {
                    results[index].cReferenceSeconds = cReference[repetition]?.seconds
                    results[index].cReferenceCPUSeconds = cReference[repetition]?.cpuSeconds
                }
                observe(.runFinished(results[results.count - 1], soFar: results))
            }
        }
        return BenchmarkOutcome(
            results: results, expected: expected, expectedWithoutPreload: expectedWithoutPreload, referenceSkipped: referenceSkipped,
            skippedRecords: skippedRecords, skippedErrors: skippedErrors,
            payloadPath: payloadPath, payloadBytes: payloadBytes, preparations: preparations, readingNotes: payloadReader.readingNotes)
    }

    /// The run of `strategy` in this benchmark: every setting comes from the configuration here, and
    /// nowhere else. The reference is plain inserts into an empty store, refresh or not.
    /// `scenario` is the spec's, resolved once per `run()`; `strategy` as prepared, when it was.
    private func makeRun(
        of strategy: ImportMethod, scenario: any Scenario, payloadPath: String, preloadPath: String?, databasePath: String,
        checkpoint: Bool
    ) -> ImportRun {
        var options = configuration.spec.options
        options.checkpoint = checkpoint
        var run = ImportRun(
            scenario: scenario, payloadPath: payloadPath, strategy: strategy, databasePath: databasePath,
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

    private static func stopIfInterrupted() throws {
        if ImportInterruption.isRequested { throw Interrupted() }
    }

    /// The payload cannot be imported whole. Each strategy still runs once, so the user sees where it
    /// stops and what it leaves; every store is checked to hold exactly its committed batches.
    private func importBadPayload(
        _ cause: any Error, scenario: any Scenario, payloadPath: String, preloadPath: String?, in workDirectory: URL, _ observe: (BenchmarkEvent) -> Void
    ) throws -> BadPayloadError {
        var lines: [String] = []
        let strategies = configuration.plannedStrategies
        for (index, strategy) in strategies.enumerated() {
            try Self.stopIfInterrupted()
            observe(.runStarted(strategy: strategy.name, repetition: 1, index: index + 1, total: strategies.count))
            let databasePath = self.databasePath(for: strategy.name, in: workDirectory)
            defer { if configuration.databasePath == nil { DatabaseFile.remove(databasePath) } }
            let run = makeRun(
                of: strategy, scenario: scenario, payloadPath: payloadPath, preloadPath: preloadPath, databasePath: databasePath,
                checkpoint: configuration.spec.options.checkpoint)
            let failure: (pass: Int, occurrences: Int, message: String)
            do {
                _ = try execute(run, { _ in })
                lines.append("\(strategy.name): imported without an error, although the payload is unusable")
                continue
            } catch let error as RunError {
                if error.stage == .interrupted { throw error }
                failure = (error.pass, error.committedOccurrences, error.summary)
            } catch {
                lines.append("\(strategy.name): failed before importing: \(error)")
                continue
            }
            let scratch = workDirectory.appendingPathComponent("committed-\(strategy.name).sqlite").path
            let expected = try run.committedDigest(pass: failure.pass, committedOccurrences: failure.occurrences, scratchPath: scratch)
            let store = try Connection(path: databasePath)
            let differences = try scenario.schema.digest(of: store).differences(from: expected)
            let check = differences.isEmpty
                ? "Checked: the store holds exactly its committed batches."
                : "the store does NOT match its committed batches: \(differences.joined(separator: "; "))"
            lines.append("\(failure.message) \(check)")
        }
        if configuration.databasePath == nil { lines.append("(the stores were temporary and are removed; give --db PATH to keep them)") }
        return BadPayloadError(cause: cause, payloadPath: payloadPath, preloadPath: preloadPath, runs: lines)
    }

    /// The preload's file: the given one, or one generated to overlap the measured payload.
    private func resolvePreload(of scenario: any Scenario, in workDirectory: URL) throws -> String? {
        switch configuration.spec.preload {
        case nil:
            return nil
        case .file(let path):
            return path
        case .generated(let overlap, let changed):
            // `checkRequest` has refused a generated preload over a recorded payload.
            guard let generator = configuration.spec.payload.generator else { throw RunRequestError.generatedPreloadWithRecordedPayload }
            let path = workDirectory.appendingPathComponent("preload-\(scenario.name)").path
            try scenario.generatePreload(
                scale: generator.scale.factor, seed: generator.seed, overlap: overlap, changed: changed, to: path)
            return path
        }
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

/// A payload no strategy can import whole: the reason, and what each strategy did with it.
package struct BadPayloadError: Error, CustomStringConvertible {
    package let cause: any Error
    /// Named before a cause that does not name it (a missing reference, found by key, not by position).
    package let payloadPath: String
    /// Named too, when there is one: a missing reference may be in it, checked with the payload.
    package let preloadPath: String?
    /// One line per strategy: where it stopped, what stays committed, and whether its store was checked.
    package let runs: [String]

    package var description: String {
        let files = preloadPath.map { "\(payloadPath) (or its preload \($0))" } ?? payloadPath
        let reason = cause is PayloadError ? "\(cause)" : "\(files): \(cause)"
        return reason + "\n  " + runs.joined(separator: "\n  ")
    }
}
