import Foundation
import ImportBenchStore

/// One strategy importing one payload into a fresh database file, measured.
public struct ImportRun {
    public let scenario: any Scenario
    public let payloadPath: String
    public let strategy: any ImportStrategy.Type
    public let batchSize: BatchSize
    public let databasePath: String
    public let prewarmChunkSize: Int
    /// An earlier payload imported first, untimed and uncounted, so the measured import is a refresh.
    public let preloadPath: String?

    public init(
        scenario: any Scenario, payloadPath: String, strategy: any ImportStrategy.Type,
        batchSize: BatchSize, databasePath: String, prewarmChunkSize: Int = 500, preloadPath: String? = nil
    ) {
        self.scenario = scenario
        self.payloadPath = payloadPath
        self.strategy = strategy
        self.batchSize = batchSize
        self.databasePath = databasePath
        self.prewarmChunkSize = prewarmChunkSize
        self.preloadPath = preloadPath
    }

    /// Runs the import. `progress` receives the occurrences written so far after each batch.
    /// A failing batch is rolled back; earlier batches stay committed.
    public func execute(progress: ((Int) -> Void)? = nil) throws -> ImportMeasurement {
        DatabaseFile.remove(databasePath)
        var measurement = ImportMeasurement()
        do {
            let store = try Connection(path: databasePath)
            try store.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
            for statement in scenario.schema.ddl { try store.execute(statement) }
            if let preloadPath { try preload(preloadPath, into: store) }
            let instance = try strategy.init(context: StrategyContext(
                schema: scenario.schema, store: store, prewarmChunkSize: prewarmChunkSize))

            var phases = ImportMeasurement()
            try measure(into: &measurement, store: store) {
                try importPayload(with: instance, into: store, phases: &phases, progress: progress)
            }
            measurement.occurrences = phases.occurrences
            measurement.decodeSeconds = phases.decodeSeconds
            measurement.writeSeconds = phases.writeSeconds
            measurement.commitSeconds = phases.commitSeconds
            measurement.digest = try scenario.schema.digest(of: store)
        }
        measurement.databaseBytes = DatabaseFile.size(databasePath)
        return measurement
    }

    /// Fills the empty store with the ceiling's plain inserts, the cheapest faithful load there is.
    private func preload(_ path: String, into store: Connection) throws {
        let loader = try CeilingStrategy(context: StrategyContext(schema: scenario.schema, store: store))
        let batcher = RecordBatcher(reader: try scenario.openReader(path: path), batchSize: .all)
        try store.inTransaction {
            while let batch = try batcher.next() { try loader.write(batch, pass: 0) }
            try loader.finishPass(0)
        }
    }

    private func measure(into measurement: inout ImportMeasurement, store: Connection, _ body: () throws -> Void) throws {
        let countsBefore = store.counter.counts
        let changesBefore = store.totalChanges
        PeakResidentMemory.reset()
        AllocatorStatistics.resetPeak()
        let allocatorBefore = AllocatorStatistics.now()
        let cpuBefore = CPUTime.now()
        let start = MonotonicClock.now()

        try body()

        measurement.wallSeconds = MonotonicClock.now() - start
        let cpu = CPUTime.now() - cpuBefore
        let allocatorAfter = AllocatorStatistics.now()
        measurement.cpuUserSeconds = cpu.user
        measurement.cpuSystemSeconds = cpu.system
        measurement.peakRSSBytes = PeakResidentMemory.read()
        measurement.peakAllocatedBytes = AllocatorStatistics.peak()
        measurement.allocatedBytes = allocatorAfter.allocatedBytes &- allocatorBefore.allocatedBytes
        measurement.mallocCount = allocatorAfter.mallocCount &- allocatorBefore.mallocCount
        measurement.counts = store.counter.counts - countsBefore
        measurement.rowsWritten = store.totalChanges - changesBefore
    }

    private func importPayload(
        with instance: any ImportStrategy, into store: Connection,
        phases measurement: inout ImportMeasurement, progress: ((Int) -> Void)?
    ) throws {
        for pass in 0..<instance.passes {
            let batcher = RecordBatcher(reader: try scenario.openReader(path: payloadPath), batchSize: batchSize)
            let wholePass = instance.transactionScope == .wholePass
            if wholePass { try timed(&measurement.commitSeconds) { try store.begin() } }
            do {
                while true {
                    var next: RecordBatch?
                    try timed(&measurement.decodeSeconds) { next = try batcher.next() }
                    guard let batch = next else { break }
                    if !wholePass { try timed(&measurement.commitSeconds) { try store.begin() } }
                    do {
                        try timed(&measurement.writeSeconds) { try instance.write(batch, pass: pass) }
                    } catch {
                        throw RunError(strategy: strategy.name, pass: pass, batch: batch, underlying: error)
                    }
                    if !wholePass { try timed(&measurement.commitSeconds) { try store.commit() } }
                    if pass == 0 { measurement.occurrences += batch.occurrences.count }
                    progress?(batcher.occurrencesRead)
                }
                do {
                    try timed(&measurement.writeSeconds) { try instance.finishPass(pass) }
                } catch {
                    throw RunError(strategy: strategy.name, pass: pass, batch: nil, underlying: error)
                }
                if wholePass { try timed(&measurement.commitSeconds) { try store.commit() } }
            } catch {
                try? store.rollback()
                throw error
            }
        }
    }

    private func timed(_ accumulator: inout Double, _ body: () throws -> Void) throws {
        let start = MonotonicClock.now()
        defer { accumulator += MonotonicClock.now() - start }
        try body()
    }
}

/// A strategy failed while writing a batch: which one, where, and why. Earlier batches stay committed.
public struct RunError: Error, CustomStringConvertible {
    public let strategy: String
    public let pass: Int
    /// nil when the failure came after the last batch, in the strategy's end-of-pass work.
    public let batchIndex: Int?
    /// The failing batch's occurrences, by stream ordinal.
    public let ordinals: ClosedRange<Int>?
    public let underlying: any Error

    init(strategy: String, pass: Int, batch: RecordBatch?, underlying: any Error) {
        self.strategy = strategy
        self.pass = pass
        self.batchIndex = batch?.index
        if let first = batch?.occurrences.first?.ordinal, let last = batch?.occurrences.last?.ordinal {
            self.ordinals = first...last
        } else {
            self.ordinals = nil
        }
        self.underlying = underlying
    }

    public var description: String {
        let passNote = pass > 0 ? ", pass \(pass + 1)" : ""
        guard let batchIndex, let ordinals else {
            return "\(strategy): end of pass\(passNote) rolled back: \(underlying)"
        }
        return "\(strategy): batch \(batchIndex) (occurrences \(ordinals.lowerBound)-\(ordinals.upperBound)\(passNote)) "
            + "rolled back, earlier batches committed: \(underlying)"
    }
}

/// A database file and its WAL and shared-memory companions.
enum DatabaseFile {
    static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    static func size(_ path: String) -> Int64 {
        ["", "-wal"].reduce(Int64(0)) { total, suffix in
            let attributes = try? FileManager.default.attributesOfItem(atPath: path + suffix)
            return total + ((attributes?[.size] as? NSNumber)?.int64Value ?? 0)
        }
    }
}
