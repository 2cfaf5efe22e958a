import Foundation
import ImportBenchStore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A second connection, as an app's view context would hold, running the screen's query `hz` times a
/// second on its own thread while the import writes. It waits out SQLITE_BUSY itself, in 100 µs steps,
/// so the time a query spends locked out by the writer is measured, not hidden in SQLite's coarser
/// busy handler.
final class ReaderProbe: Sendable {
    /// What the probe thread spent, to be taken out of the import's own figures.
    struct Cost: Sendable {
        var cpu = CPUTime(user: 0, system: 0)
        var allocationRequests: UInt64 = 0
    }

    private let databasePath: String
    private let query: String
    private let hz: Int
    private let stopRequested = Atomic<Bool>(false)
    /// Queries finished so far, readable while the probe runs.
    let completedQueries = Atomic<Int>(0)
    /// Times a query met SQLITE_BUSY and tried again.
    let busyRetries = Atomic<Int>(0)
    private let outcome = Mutex<Result<(ReaderLatencies, Cost), any Error>?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts querying at once; `stop()` must follow.
    init(databasePath: String, query: String, hz: Int) {
        self.databasePath = databasePath
        self.query = query
        self.hz = max(1, hz)
        let thread = Thread { [self] in
            let result = Result { try self.probe() }
            self.outcome.withLock { $0 = result }
            self.finished.signal()
        }
        thread.name = "importbench-reader-probe"
        thread.start()
    }

    /// Ends the probe after its current query and returns what it saw, or the error that stopped it.
    func stop() throws -> ReaderProbeSummary {
        try finish().0.summary
    }

    func finish() throws -> (ReaderLatencies, Cost) {
        stopRequested.store(true, ordering: .relaxed)
        finished.wait()
        finished.signal()
        guard let result = outcome.withLock({ $0 }) else { throw RunError.readerProbeFailed(cause: nil) }
        return try result.get()
    }

    private func probe() throws -> (ReaderLatencies, Cost) {
        let allocationsBefore = AllocatorStatistics.isolateCurrentThread()
        let cpuBefore = CPUTime.currentThread()
        var latencies = ReaderLatencies(hz: hz)
        do {
            let connection = try StoreConnection(path: databasePath, readOnly: true, tracing: .never)
            // A statement must not outlive its connection.
            defer { withExtendedLifetime(connection) {} }
            var statement: StoreStatement?
            let interval = 1 / Double(hz)
            var tick = MonotonicClock.now()
            // At least one query, however short the import: a query the store cannot run is reported.
            while latencies.queries == 0 || !stopRequested.load(ordering: .relaxed) {
                let wait = tick - MonotonicClock.now()
                if wait > 0 {
                    // Short naps, so a stop is seen within a millisecond or two.
                    usleep(useconds_t(min(wait, 0.002) * 1_000_000))
                    continue
                }
                let started = MonotonicClock.now()
                let blockedSince = try runQuery(&statement, on: connection)
                let ended = MonotonicClock.now()
                latencies.record(latency: ended - started, blocked: blockedSince.map { ended - $0 } ?? 0)
                completedQueries.add(1, ordering: .relaxed)
                // The next tick on the schedule still ahead; the ones a slow query covered are accounted
                // for by the histogram's correction.
                tick += interval
                if tick <= ended { tick += ((ended - tick) / interval).rounded(.down) * interval + interval }
            }
        } catch {
            throw RunError.readerProbeFailed(cause: error)
        }
        let cost = Cost(
            cpu: CPUTime.currentThread() - cpuBefore,
            allocationRequests: AllocatorStatistics.isolatedThreadRequests() &- allocationsBefore)
        return (latencies, cost)
    }

    /// Runs the query to its last row, waiting out the writer's lock; returns when the wait began, if
    /// it had to wait. A stop while locked out ends the wait: what was waited so far is still a wait.
    private func runQuery(_ statement: inout StoreStatement?, on connection: StoreConnection) throws -> Double? {
        var blockedSince: Double?
        while true {
            do {
                let prepared = try statement ?? connection.prepare(query)
                statement = prepared
                while try prepared.step() { _ = prepared.row() }
                prepared.reset()
                return blockedSince
            } catch let error as StoreError where error.isBusy {
                statement?.reset()
                if blockedSince == nil { blockedSince = MonotonicClock.now() }
                busyRetries.add(1, ordering: .relaxed)
                if stopRequested.load(ordering: .relaxed) { return blockedSince }
                usleep(100)
            }
        }
    }
}
