import ImportBenchPayload
import ImportBenchStore
import ImportBenchStrategies

/// One strategy importing a run's payload: its passes and batches, the transactions around them,
/// what is committed so far, and the time of each phase. A failure is a `RunError.stopped`, whose
/// `ImportStop` says where it stopped and what stays committed.
struct StreamedImport {
    let run: ImportRun
    let counter: RunCounter
    let ledger: ImportLedger
    private(set) var state: ImportRun.ImportProgress
    /// Occurrences read and the time of each phase, gathered batch by batch.
    private(set) var phases = ImportMeasurement()
    private var bookkeeping = ImportRun.Bookkeeping()
    private var transactionStart = 0.0
    /// Whether a transaction of bench's is open: a failure rolls it back.
    private var transactionOpen = false
    /// The batch being written, for a failure of its COMMIT (a full disk) to name it.
    private var writing: RecordBatch?

    init(run: ImportRun, counter: RunCounter, ledger: ImportLedger, state: ImportRun.ImportProgress) {
        self.run = run
        self.counter = counter
        self.ledger = ledger
        self.state = state
    }

    /// Creates the strategy, imports every pass the run has left, measured, and releases the
    /// strategy on return: a connection it opened is closed by the time the caller checks that
    /// every traced connection reported its statements.
    mutating func importAll(
        _ strategy: any ImportStrategy.Type, context: StrategyContext, into measurement: inout ImportMeasurement,
        progress: ((Int) -> Void)?
    ) throws {
        let instance = try strategy.init(context: context)
        if instance.transactionScope == .strategy && run.options.checkpoint {
            throw fail(.creating, batch: nil, ImportError.checkpointUnsupported(strategy: strategy.name))
        }
        // Before the clock starts: a refresh under a missing-reference policy reads its preload's keys.
        let run = self.run
        let reading = try run.scenario.reading(run.options.reading, afterPreload: run.preloadPath)
        try run.measure(into: &measurement, store: context.store, counter: counter, probeHz: run.options.probeReadsHz) { bookkept in
            if let resumePoint = state.resumePoint { try instance.resume(atPass: resumePoint.pass) }
            try importPasses(with: instance, interner: context.interner, reading: reading, store: context.store, progress: progress)
            bookkept = bookkeeping
        }
        measurement.fallback = (instance as? any FallbackReporting)?.fallback
    }

    private mutating func importPasses(
        with instance: any ImportStrategy, interner: KeyInterner, reading: PayloadReading, store: StoreConnection, progress: ((Int) -> Void)?
    ) throws {
        let resume = state.resumePoint
        // A resumed import reads only the passes it has left; the first of them counts the occurrences.
        var countingPass: Int?
        for pass in 0..<run.method.passes {
            state.pass = pass
            state.committedBatches = 0
            state.committedOccurrences = 0
            let passDone = resume.map { pass < $0.pass || (pass == $0.pass && $0.passFinished) } ?? false
            if passDone { continue }
            if countingPass == nil { countingPass = pass }
            let batcher: RecordBatcher
            do {
                batcher = RecordBatcher(
                    reader: try run.scenario.openPayload(path: run.payloadPath, reading: reading), batchSize: run.options.batchSize,
                    schema: run.scenario.schema, interner: interner)
            } catch {
                throw fail(.reading, batch: nil, index: 0, error)
            }
            let ahead: DecodeAhead?
            do {
                ahead = run.options.decodeAhead ? try DecodeAhead(batcher: batcher) : nil
            } catch {
                throw fail(.reading, batch: nil, index: 0, error)
            }
            // The decoding thread ends with the pass, whichever way the pass ends.
            defer {
                if let ahead {
                    let cost = ahead.finish()
                    bookkeeping.decodeAhead = bookkeeping.decodeAhead.map { $0 + cost } ?? cost
                }
            }
            try importPass(
                pass, with: instance, from: ahead ?? batcher, skipping: resume?.pass == pass ? resume?.batches ?? 0 : 0,
                countsOccurrences: pass == countingPass, store: store, progress: progress)
        }
    }

    /// One pass: each batch in a transaction of its own, or the pass in one, or none of bench's
    /// where the strategy commits its own; then the pass's end and its ledger entry.
    private mutating func importPass(
        _ pass: Int, with instance: any ImportStrategy, from batcher: any BatchSource, skipping skipped: Int, countsOccurrences: Bool,
        store: StoreConnection, progress: ((Int) -> Void)?
    ) throws {
        do {
            if instance.transactionScope == .wholePass { try begin(store) }
            while let batch = try nextBatch(from: batcher) {
                if countsOccurrences { phases.occurrences += batch.occurrences.count }
                if run.stopRequested() { throw fail(.interrupted, batch: batch, RunError.interrupted) }
                if batch.index < skipped {
                    committed(batch)
                    continue
                }
                try importBatch(batch, pass: pass, with: instance, store: store)
                progress?(batcher.occurrencesRead)
            }
            writing = nil
            try finishPass(pass, with: instance, store: store)
        } catch {
            if transactionOpen {
                try? store.rollback()
                transactionOpen = false
            }
            // BEGIN, COMMIT and the checkpoint's own write fail only through the store (a full
            // disk, an I/O error): said like every failure, with what stays committed.
            if let error = error as? RunError, error.stop != nil { throw error }
            throw fail(.committing, batch: writing, error)
        }
    }

    /// One batch written: in a transaction of its own under `.perBatch`, recorded in the ledger
    /// first when checkpointed; committed at once unless the pass is one transaction.
    private mutating func importBatch(_ batch: RecordBatch, pass: Int, with instance: any ImportStrategy, store: StoreConnection) throws {
        let scope = instance.transactionScope
        writing = batch
        if scope == .perBatch { try begin(store) }
        do {
            try timed(\.writeSeconds) { try instance.write(batch, pass: pass) }
        } catch {
            throw fail(.writing, batch: batch, error)
        }
        if scope == .perBatch {
            if run.stopRequested() { throw fail(.interrupted, batch: batch, RunError.interrupted) }
            if run.options.checkpoint { try record(pass: pass, batches: batch.index + 1, passFinished: false, store: store) }
            try commit(store)
        }
        if scope != .wholePass { committed(batch) }
    }

    /// The pass's end: the strategy's `finishPass` and the ledger's entry for the pass, committed
    /// with the pass's transaction, or in one of their own (`.perBatch`, or `.strategy` for the ledger).
    private mutating func finishPass(_ pass: Int, with instance: any ImportStrategy, store: StoreConnection) throws {
        let scope = instance.transactionScope
        if scope == .perBatch { try begin(store) }
        do {
            try timed(\.writeSeconds) { try instance.finishPass(pass) }
        } catch {
            throw fail(.finishing, batch: nil, error)
        }
        if run.stopRequested() { throw fail(.interrupted, batch: nil, RunError.interrupted) }
        if scope == .strategy {
            try record(pass: pass, batches: state.committedBatches, passFinished: true, store: store, inTransactionOfItsOwn: true)
        } else {
            try record(pass: pass, batches: state.committedBatches, passFinished: true, store: store)
            try commit(store)
        }
    }

    private mutating func nextBatch(from batcher: any BatchSource) throws -> RecordBatch? {
        var next: RecordBatch?
        do {
            try timed(\.decodeSeconds) { next = try batcher.next() }
        } catch {
            throw fail(.reading, batch: nil, index: batcher.batchesHandedOut, error)
        }
        return next
    }

    private mutating func committed(_ batch: RecordBatch) {
        state.committedBatches += 1
        state.committedOccurrences += batch.occurrences.count
    }

    /// Records where the import stands, uncounted: inside the transaction being committed, or, for a
    /// strategy that commits its own, in a transaction of bench's, itself bookkeeping too.
    private mutating func record(
        pass: Int, batches: Int, passFinished: Bool, store: StoreConnection, inTransactionOfItsOwn: Bool = false
    ) throws {
        let ledger = self.ledger
        let generation = state.generation
        let completed = passFinished && pass == run.method.passes - 1
        let before = counter.read(store)
        let write = {
            try ledger.record(generation: generation, pass: pass, batches: batches, passFinished: passFinished, completed: completed)
        }
        if inTransactionOfItsOwn { try store.inTransaction(write) } else { try write() }
        let after = counter.read(store)
        bookkeeping.counts = bookkeeping.counts + (after.counts - before.counts)
        bookkeeping.changes += after.rowsWritten - before.rowsWritten
    }

    private mutating func begin(_ store: StoreConnection) throws {
        transactionStart = MonotonicClock.now()
        try timed(\.commitSeconds) { try store.begin() }
        transactionOpen = true
    }

    private mutating func commit(_ store: StoreConnection) throws {
        try timed(\.commitSeconds) { try store.commit() }
        transactionOpen = false
        phases.longestWriteTransactionSeconds = max(phases.longestWriteTransactionSeconds, MonotonicClock.now() - transactionStart)
    }

    private mutating func timed(_ phase: WritableKeyPath<ImportMeasurement, Double>, _ body: () throws -> Void) throws {
        let start = MonotonicClock.now()
        defer { phases[keyPath: phase] += MonotonicClock.now() - start }
        try body()
    }

    func fail(_ stage: ImportStop.Stage, batch: RecordBatch?, index: Int? = nil, _ error: any Error) -> RunError {
        .stopped(
            ImportStop(
                strategy: run.method.name, stage: stage, pass: state.pass, batch: batch, batchIndex: index ?? batch?.index,
                committedBatches: state.committedBatches, committedOccurrences: state.committedOccurrences,
                databasePath: run.databasePath, checkpointed: run.options.checkpoint, cause: error))
    }
}
