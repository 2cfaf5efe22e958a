import CSQLCounter
import CSQLite

/// Counts at the SQLite level: every connection the process opens through the system's libsqlite3
/// while tracing is on, whichever library opened it (bench's `StoreConnection`, GRDB, a plug-in's own
/// C code), is traced with `sqlite3_trace_v2` from an auto extension. What a plug-in's importer
/// executes is counted as bench's own statements are, without its code knowing.
///
/// One trace per connection is SQLite's rule: code that installs its own (GRDB's `db.trace`)
/// replaces this one, and that connection then reports no more; `connectionsUnreported` tells.
package enum SQLiteCounter {
    /// Registers the auto extension, once per process. Connections opened before stay untraced.
    package static func install() throws(StoreError) {
        let code = importbench_sql_counter_install()
        guard code == SQLITE_OK else {
            throw StoreError(extendedCode: code, message: "sqlite3_auto_extension refused the statement counter")
        }
    }

    /// Traces connections opened from now on, until the matching `stopTracingNewConnections`;
    /// requests nest (two callers each start and stop). `install` first.
    package static func startTracingNewConnections() {
        importbench_sql_counter_enable(1)
    }

    /// Withdraws one `startTracingNewConnections`; connections already traced stay traced.
    package static func stopTracingNewConnections() {
        importbench_sql_counter_enable(0)
    }

    /// Everything counted so far, over every traced connection: subtract a start from an end.
    package static var counts: SQLiteCounts {
        var raw = importbench_sql_counts()
        importbench_sql_counter_read(&raw)
        return SQLiteCounts(raw)
    }
}

/// Whether the SQLite-level counter sees a connection of bench's.
package enum SQLiteTracing: Sendable {
    /// As every other connection: traced when opened while `startTracingNewConnections` holds.
    case whenStarted
    /// Never: bench's own reader beside an import is no part of what the import executed.
    case never
    /// Always, tracing on or off: a test's connection, counted without tracing its neighbours'.
    case always
}

/// What the SQLite-level counter saw, as `StatementCounts` and the rows written.
package struct SQLiteCounts: Sendable, Equatable {
    /// Executions by kind, transactions and VM steps, as bench's own counter keeps them.
    package var statements: StatementCounts
    /// Rows inserted, updated or deleted, as `sqlite3_total_changes64` counts them.
    package var rowsWritten: Int64
    /// Connections traced so far, and those that reported closing: one that closed without a
    /// report had its trace replaced, and what it ran after that went uncounted.
    package var connectionsTraced: Int64
    package var connectionsClosed: Int64

    init(_ raw: importbench_sql_counts) {
        var statements = StatementCounts()
        statements.fetches = Int(raw.fetches)
        statements.inserts = Int(raw.inserts)
        statements.updates = Int(raw.updates)
        statements.upserts = Int(raw.upserts)
        statements.deletes = Int(raw.deletes)
        statements.others = Int(raw.others)
        statements.transactions = Int(raw.transactions)
        statements.vmSteps = raw.vm_steps
        self.statements = statements
        rowsWritten = raw.rows_written
        connectionsTraced = raw.connections_traced
        connectionsClosed = raw.connections_closed
    }

    /// Traced connections not yet reported closed: open still, or closed after their trace was replaced.
    package var connectionsUnreported: Int64 { connectionsTraced - connectionsClosed }

    package static func - (lhs: SQLiteCounts, rhs: SQLiteCounts) -> SQLiteCounts {
        var result = lhs
        result.statements = lhs.statements - rhs.statements
        result.rowsWritten = lhs.rowsWritten - rhs.rowsWritten
        result.connectionsTraced = lhs.connectionsTraced - rhs.connectionsTraced
        result.connectionsClosed = lhs.connectionsClosed - rhs.connectionsClosed
        return result
    }
}

extension StoreConnection {
    /// What the SQLite-level counter saw on this connection alone since it opened; nil when the
    /// counter does not trace it (opened while tracing was off, or `counted: false`).
    package var tracedCounts: SQLiteCounts? {
        var raw = importbench_sql_counts()
        guard importbench_sql_counter_read_connection(handle, &raw) != 0 else { return nil }
        return SQLiteCounts(raw)
    }
}
