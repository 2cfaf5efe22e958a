import Foundation
import ImportBenchPayload
import ImportBenchStore
import ImportBenchStrategies

/// One method importing one payload into a fresh database file, measured.
package struct ImportRun {
    /// The run's settings, its payload and preload already files: the inits refuse anything else.
    package internal(set) var spec: RunSpec
    /// `spec.scenario`, resolved.
    package let scenario: any Scenario
    /// What the run measures: a strategy, the ceiling, a command or a seed copy.
    package let method: ImportMethod
    package let databasePath: String
    /// Asked before each batch is written and before it is committed; true rolls it back and stops.
    package var stopRequested: () -> Bool = { ImportInterruption.isRequested }
    /// The payload's hash and origin, when the benchmark read it whole first: what a checkpoint
    /// records and a resumption must match.
    package var payloadIdentity: PayloadIdentity?

    /// A run of `spec`, as a child process rebuilds it; `scenario` is `spec.scenario` resolved.
    package init(spec: RunSpec, scenario: any Scenario, method: ImportMethod, databasePath: String) throws(RunError) {
        switch (spec.payload, spec.preload) {
        case (.file, nil), (.file, .file?): break
        default: throw .refused(.payloadNotWritten(spec))
        }
        self.spec = spec
        self.scenario = scenario
        self.method = method
        self.databasePath = databasePath
    }

    /// A run of `spec` of a strategy type.
    package init(spec: RunSpec, scenario: any Scenario, method: any MeasuredMethod.Type, databasePath: String) throws(RunError) {
        try self.init(spec: spec, scenario: scenario, method: ImportMethod(method), databasePath: databasePath)
    }

    /// A run of files already written, of a strategy type.
    package init(
        scenario: any Scenario, payloadPath: String, method: any MeasuredMethod.Type, databasePath: String,
        preloadPath: String? = nil, options: RunOptions
    ) {
        self.init(
            scenario: scenario, payloadPath: payloadPath, method: ImportMethod(method), databasePath: databasePath,
            preloadPath: preloadPath, options: options)
    }

    /// A run of files already written; its spec names `scenario` by its source.
    package init(
        scenario: any Scenario, payloadPath: String, method: ImportMethod, databasePath: String,
        preloadPath: String? = nil, options: RunOptions
    ) {
        spec = RunSpec(
            scenario: scenario.source, payload: .file(payloadPath), preload: preloadPath.map(PreloadSpec.file), options: options)
        self.scenario = scenario
        self.method = method
        self.databasePath = databasePath
    }

    package var payloadPath: String {
        guard case .file(let path) = spec.payload else { preconditionFailure("an ImportRun's payload is a file: its inits refuse others") }
        return path
    }

    /// An earlier payload imported first, untimed and uncounted, so the measured import is a refresh.
    package var preloadPath: String? {
        guard case .file(let path)? = spec.preload else { return nil }
        return path
    }

    package var options: RunOptions { spec.options }

    /// A run with its options spelled out one by one, for tests and library callers.
    package init(
        scenario: any Scenario, payloadPath: String, method: any MeasuredMethod.Type,
        batchSize: BatchSize, databasePath: String, preloadPath: String? = nil,
        checkpoint: Bool = false, onError: PayloadErrorPolicy = .fail, settings: StoreSettings = .default,
        probeReadsHz: Int? = nil, restartCheckpoint: Bool = false
    ) {
        self.init(
            scenario: scenario, payloadPath: payloadPath, method: ImportMethod(method), batchSize: batchSize,
            databasePath: databasePath, preloadPath: preloadPath, checkpoint: checkpoint,
            onError: onError, settings: settings, probeReadsHz: probeReadsHz, restartCheckpoint: restartCheckpoint)
    }

    /// A run of a method with its options spelled out one by one.
    package init(
        scenario: any Scenario, payloadPath: String, method: ImportMethod,
        batchSize: BatchSize, databasePath: String, preloadPath: String? = nil,
        checkpoint: Bool = false, onError: PayloadErrorPolicy = .fail, settings: StoreSettings = .default,
        probeReadsHz: Int? = nil, restartCheckpoint: Bool = false
    ) {
        self.init(
            scenario: scenario, payloadPath: payloadPath, method: method, databasePath: databasePath, preloadPath: preloadPath,
            options: RunOptions(
                batchSize: batchSize, checkpoint: checkpoint, onError: onError,
                store: settings, probeReadsHz: probeReadsHz, restart: restartCheckpoint))
    }

    /// What must match for a checkpoint to be resumed: the same payload, preload, strategy, batching and store settings.
    var identity: String { CheckpointIdentity(self).text }

    /// Runs the method, measured. `progress` receives the occurrences read so far after each batch.
    package func execute(progress: ((Int) -> Void)? = nil) throws -> ImportMeasurement {
        try method.measure(self, progress: progress)
    }

    /// Streams the payload through a new `strategy`, batch by batch: what every import strategy's
    /// `measure` is. A failing batch is rolled back and earlier batches stay committed; the
    /// `ImportStop` it throws (in a `RunError`) says how many.
    func importBatches(with strategy: any ImportStrategy.Type, progress: ((Int) -> Void)?) throws -> ImportMeasurement {
        var measurement = ImportMeasurement()
        measurement.countedAt = options.counting
        let counter: RunCounter
        do {
            counter = try RunCounter(level: options.counting)
        } catch {
            throw creationFailure(error)
        }
        defer { counter.stop() }
        // A scope of its own: the store is closed before its size is taken.
        do {
            let start = try startingStore(resumedFrom: &measurement.resumedFrom)
            try importAll(strategy, from: start, counter: counter, into: &measurement, progress: progress)
        }
        measurement.databaseBytes = DatabaseFile.size(databasePath)
        return measurement
    }

    /// The store to import into, its ledger, and where the import starts: an unfinished
    /// checkpointed import of this very run, resumed (`resumedFrom` says where, if past the very
    /// start), or a store created now. A failure here has imported nothing.
    private func startingStore(
        resumedFrom: inout ResumePoint?
    ) throws -> (store: StoreConnection, ledger: ImportLedger, state: ImportProgress) {
        let store: StoreConnection
        let resumePoint: ImportLedger.Entry?
        do {
            (store, resumePoint) = try openStore()
        } catch let refusal as RunError where refusal.refusal != nil {
            throw refusal
        } catch {
            throw creationFailure(error)
        }
        let ledger = ImportLedger(store: store)
        guard let resumePoint else {
            do {
                return (store, ledger, ImportProgress(generation: try createStore(store, ledger: ledger), resumePoint: nil))
            } catch {
                throw creationFailure(error)
            }
        }
        // Picking up at the very start (schema and preload kept, nothing imported) is no resumption to report.
        if resumePoint.pass > 0 || resumePoint.batches > 0 || resumePoint.passFinished {
            resumedFrom = ResumePoint(pass: resumePoint.pass, batches: resumePoint.batches)
        }
        return (store, ledger, ImportProgress(generation: resumePoint.generation, resumePoint: resumePoint))
    }

    /// Every pass left, through a new `strategy`, measured, then the store's digest. A connection
    /// the strategy left unreported (its statements perhaps uncounted) fails the run.
    private func importAll(
        _ strategy: any ImportStrategy.Type, from start: (store: StoreConnection, ledger: ImportLedger, state: ImportProgress),
        counter: RunCounter, into measurement: inout ImportMeasurement, progress: ((Int) -> Void)?
    ) throws {
        let context = StrategyContext(
            schema: scenario.schema, store: start.store, settings: StrategySettings(method.settings), generation: start.state.generation,
            connectionSettings: connectionSettings)
        let unreportedBefore = counter.unreportedConnections
        var run = StreamedImport(run: self, counter: counter, ledger: start.ledger, state: start.state)
        try run.importAll(strategy, context: context, into: &measurement, progress: progress)
        let unreported = counter.unreportedConnections - unreportedBefore
        if unreported > 0 {
            throw run.fail(.finishing, batch: nil, ImportError.uncountedConnections(strategy: strategy.name, count: Int(unreported)))
        }
        measurement.occurrences = run.phases.occurrences
        measurement.decodeSeconds = run.phases.decodeSeconds
        measurement.writeSeconds = run.phases.writeSeconds
        measurement.commitSeconds = run.phases.commitSeconds
        measurement.longestWriteTransactionSeconds = run.phases.longestWriteTransactionSeconds
        measurement.digest = try scenario.schema.digest(of: start.store)
    }

    /// What a connection a strategy opens for itself runs first, so it imports under the run's
    /// settings (foreign keys, synchronous, busy timeout) as bench's own connection does; the journal is the file's.
    var connectionSettings: [String] {
        ["PRAGMA foreign_keys = ON"] + options.store.connectionPragmas + ["PRAGMA busy_timeout = \(Self.writerBusyTimeoutMilliseconds)"]
    }

    /// The store could not be opened or created (a full disk, an I/O error): nothing was imported.
    func creationFailure(_ error: any Error) -> RunError {
        .stopped(
            ImportStop(
                strategy: method.name, stage: .creating, pass: 0, batch: nil, batchIndex: nil, committedBatches: 0,
                committedOccurrences: 0, databasePath: databasePath, checkpointed: options.checkpoint, cause: error))
    }

    /// What this run will do with its store's path, decided without changing anything there.
    enum StoreDisposition {
        /// Nothing there, or a finished store of bench's: a new store takes its place.
        case create
        /// An unfinished checkpointed import of this very run, to be continued.
        case resume(ImportLedger.Entry)
    }

    /// Refuses, before anything is written, a path that holds what bench did not create, and an
    /// unfinished checkpointed import that this run would discard: one made with other settings or
    /// another payload (each difference named), or one that a run without `--checkpoint` would
    /// start over. `--restart` (`options.restart`) discards it knowingly.
    package func checkStore() throws { _ = try storeDisposition() }

    func storeDisposition() throws -> StoreDisposition {
        switch DatabaseFile.occupant(of: databasePath) {
        case .nothing, .emptyFile: return .create
        case .other(let what): throw RunError.refused(.notOurStore(path: databasePath, found: what))
        case .benchStore: break
        }
        let entry: ImportLedger.Entry?
        do {
            let store = try StoreConnection(path: databasePath)
            entry = try ImportLedger(store: store).latest()
        }
        // Only recorded batches are work a checkpoint keeps: without --checkpoint none are recorded.
        guard let entry, !entry.completed, entry.hasCommittedWork, !options.restart else { return .create }
        let current = CheckpointIdentity(self)
        guard let recorded = CheckpointIdentity(text: entry.identity) else {
            throw RunError.refused(
                .checkpointDiffers(
                    path: databasePath, committed: entry.committedDescription,
                    differences: ["the checkpoint was written by another version of bench"]))
        }
        let differences = current.differences(fromRecorded: recorded)
        guard differences.isEmpty else {
            throw RunError.refused(.checkpointDiffers(path: databasePath, committed: entry.committedDescription, differences: differences))
        }
        guard options.checkpoint else {
            throw RunError.refused(.checkpointNotContinued(path: databasePath, committed: entry.committedDescription))
        }
        return .resume(entry)
    }

    /// The store to import into: an unfinished checkpointed import of this very run, or a new file,
    /// marked as bench's, where nothing or a finished store of bench's was.
    func openStore() throws -> (StoreConnection, ImportLedger.Entry?) {
        if case .resume(let entry) = try storeDisposition() {
            let store = try StoreConnection(path: databasePath)
            try configure(store)
            return (store, entry)
        }
        try DatabaseFile.removeOwnStore(databasePath)
        let store = try StoreConnection(path: databasePath)
        // The page size before the mark writes the file's first page.
        for statement in options.store.fileSQL { try store.execute(statement) }
        // Marked before the journal becomes WAL, so the mark is in the main file at once.
        try DatabaseFile.mark(store)
        try configure(store)
        return (store, nil)
    }

    func configure(_ store: StoreConnection) throws {
        try store.execute(options.store.setupSQL)
        // With a rollback journal, COMMIT waits for readers to finish; a probed run has one.
        try store.execute("PRAGMA busy_timeout = \(Self.writerBusyTimeoutMilliseconds)")
    }

    static let writerBusyTimeoutMilliseconds = 60_000

    /// Creates the schema, loads the preload and opens the ledger's row in one transaction, so a store
    /// killed before it commits holds no checkpoint and is started afresh.
    func createStore(_ store: StoreConnection, ledger: ImportLedger) throws -> Int64 {
        try store.inTransaction {
            for statement in scenario.schema.ddl { try store.execute(statement) }
            try store.execute(ImportLedger.ddl)
            if let preloadPath { try preload(preloadPath, into: store) }
            return try ledger.begin(identity: identity)
        }
    }

    /// The earlier payload a refresh starts from, inside the store's creating transaction.
    private func preload(_ path: String, into store: StoreConnection) throws {
        try CeilingStrategy.load(
            try scenario.openPayload(path: path, reading: options.reading), schema: scenario.schema, into: store, batchSize: .all)
    }
}

/// Where a resumed import picked up: `batches` of `pass` were already committed.
package struct ResumePoint: Sendable, Codable, Equatable {
    package var pass: Int
    package var batches: Int

    package init(pass: Int, batches: Int) {
        self.pass = pass
        self.batches = batches
    }
}

/// A database file and its WAL and shared-memory companions.
package enum DatabaseFile {
    /// The files SQLite keeps beside a database: its write-ahead log, the log's index, a rollback journal.
    static let companionSuffixes = ["-wal", "-shm", "-journal"]

    /// Removes a store bench made in a place of its own (a run's temporary directory, a staging
    /// name); `unlink` cannot remove a directory, whatever the path. A store at a path the user
    /// chose goes through `removeOwnStore`, which first checks that bench made it.
    static func remove(_ path: String) {
        for suffix in removalOrder { unlink(path + suffix) }
    }

    static func size(_ path: String) -> Int64 {
        ["", "-wal"].reduce(Int64(0)) { total, suffix in
            let attributes = try? FileManager.default.attributesOfItem(atPath: path + suffix)
            return total + ((attributes?[.size] as? NSNumber)?.int64Value ?? 0)
        }
    }
}

extension ImportRun {
    /// The digest this run's store must have after it stopped with `committedOccurrences` of pass
    /// `pass` committed: worked out from the records, independently of the strategy, so a store that
    /// kept half a batch, or lost a committed one, is caught.
    package func committedDigest(pass: Int, committedOccurrences: Int, scratchPath: String) throws -> ContentDigest {
        let preload = try preloadPath.map { try scenario.openPayload(path: $0, reading: options.reading) }
        let reading = try scenario.reading(options.reading, afterPreload: preloadPath)
        func prefix() throws -> any RecordReader {
            PrefixRecordReader(try scenario.openPayload(path: payloadPath, reading: reading), occurrences: committedOccurrences)
        }
        let loads: [(reader: any RecordReader, mode: ReferenceLoadMode)]
        if method.passes == 1 {
            loads = [(try prefix(), .whole)]
        } else if pass == 0 {
            loads = [(try prefix(), .attributesOnly)]
        } else {
            loads = [(try scenario.openPayload(path: payloadPath, reading: reading), .attributesOnly), (try prefix(), .relationshipsOnly)]
        }
        return try ExpectedContent.committedDigest(schema: scenario.schema, preload: preload, loads: loads, scratchPath: scratchPath)
    }
}
