import ImportBenchStore

/// Where a run's statement counts come from. Both give the same numbers for the same statements
/// (a test runs the built-ins both ways); they differ in what they can see and what they cost.
package enum CountingLevel: String, Codable, Sendable, CaseIterable {
    /// bench's own connection counts what goes through it: free of any hook in SQLite, blind to a
    /// connection a strategy opens for itself.
    case connection
    /// An SQLite trace on every connection the measured process opens (`SQLiteCounter`): what a
    /// plug-in's importer runs on GRDB or any other layer is counted too, at the price of a
    /// callback on every statement execution.
    case sqlite
    /// A user's command (`--command`): the same counter as `sqlite`, in a library preloaded into
    /// the command's processes, each reporting when it exits. Never asked for; what a command gets.
    case preloaded
    /// A command whose processes reported nothing (its SQLite linked in statically, or no process
    /// exiting normally): its counts are unknown, written as empty cells, never as zeros.
    case notObserved = "not_observed"

    /// The levels a run can ask for (`--count-at`).
    package static let selectable: [CountingLevel] = [.connection, .sqlite]
}

/// One run's counter: reads counts and rows written at the level the run asked for.
struct RunCounter {
    let level: CountingLevel

    /// The counts of bench's own connection: nothing to install or stop.
    static let byConnection = RunCounter(unstarted: .connection)

    private init(unstarted level: CountingLevel) {
        self.level = level
    }

    /// Traces connections opened from now on when counting at the SQLite level, until `stop`.
    init(level: CountingLevel) throws {
        self.level = level
        guard level == .sqlite else { return }
        try SQLiteCounter.install()
        SQLiteCounter.startTracingNewConnections()
    }

    func stop() {
        if level == .sqlite { SQLiteCounter.stopTracingNewConnections() }
    }

    /// The counts so far: of `store` alone, or of every traced connection.
    func read(_ store: StoreConnection) -> (counts: StatementCounts, rowsWritten: Int64) {
        switch level {
        case .connection, .preloaded, .notObserved:
            // A command's levels never count a run of bench's: its counts come from its own processes.
            return (store.counter.counts, store.totalChanges)
        case .sqlite:
            let counts = SQLiteCounter.counts
            return (counts.statements, counts.rowsWritten)
        }
    }

    /// Traced connections not reported closed (zero when counting by connection).
    var unreportedConnections: Int64 {
        level == .sqlite ? SQLiteCounter.counts.connectionsUnreported : 0
    }
}
