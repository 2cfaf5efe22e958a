import CSQLCounter
import CSQLite

/// One counted SQLite connection. Every statement a strategy runs goes through it, so every
/// execution is counted by kind. Not Sendable: SQLite connections are used from one thread here.
public final class StoreConnection {
    /// The database file.
    public let path: String
    let handle: OpaquePointer
    /// Counts of every execution on this connection since it opened.
    package let counter = StatementCounter()
    /// False when the SQLite-level counter traces this connection: it reads and resets each
    /// statement's VM step count itself, so the connection's own counter leaves that count alone.
    let countsVMSteps: Bool

    private lazy var beginStatement = try? prepare("BEGIN IMMEDIATE")
    private lazy var commitStatement = try? prepare("COMMIT")
    private lazy var rollbackStatement = try? prepare("ROLLBACK")
    var traceBox: TraceBox?

    /// Opens (creating if needed) the database at `path`, with foreign keys enforced. `readOnly`
    /// opens an existing file without ever writing it: no checkpoint of its WAL on close, no file created.
    /// `tracing` says whether the SQLite-level counter (`SQLiteCounter`) sees it.
    package init(path: String, readOnly: Bool = false, tracing: SQLiteTracing = .whenStarted) throws {
        var handle: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = StoreError.from(handle, code: code, sql: nil)
            sqlite3_close_v2(handle)
            throw StoreError(extendedCode: error.extendedCode, message: "\(error.message) (opening \(path))")
        }
        switch tracing {
        case .whenStarted: break
        case .never: importbench_sql_counter_ignore(handle)
        case .always:
            let code = importbench_sql_counter_trace(handle)
            guard code == SQLITE_OK else {
                sqlite3_close_v2(handle)
                throw StoreError(extendedCode: code, message: "the SQLite-level counter could not trace \(path)")
            }
        }
        self.path = path
        self.handle = handle
        countsVMSteps = importbench_sql_counter_traces(handle) == 0
        sqlite3_extended_result_codes(handle, 1)
        try execute("PRAGMA foreign_keys = ON")
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Prepares a statement for repeated execution; the caller keeps it for as long as it reuses it.
    public func prepare(_ sql: String) throws -> StoreStatement {
        try StoreStatement(connection: self, sql: sql)
    }

    /// Runs one or more statements that return no rows (schema, pragmas). Each is counted.
    public func execute(_ sql: String) throws {
        var remaining = sql[...]
        while !remaining.allSatisfy({ $0.isWhitespace || $0 == ";" }) {
            var tail: UnsafePointer<CChar>?
            var handle: OpaquePointer?
            var consumed = 0
            let text = String(remaining)
            let code = text.withCString { start -> Int32 in
                let code = sqlite3_prepare_v2(self.handle, start, -1, &handle, &tail)
                if let tail { consumed = start.distance(to: tail) }
                return code
            }
            guard code == SQLITE_OK else { throw StoreError.from(self.handle, code: code, sql: text) }
            let statementText = String(decoding: text.utf8.prefix(consumed), as: UTF8.self)
            remaining = Substring(String(decoding: text.utf8.dropFirst(consumed), as: UTF8.self))
            guard let handle else { continue }
            sqlite3_finalize(handle)
            try prepare(statementText).execute()
        }
    }

    // MARK: Transactions

    /// Opens a write transaction (`BEGIN IMMEDIATE`, so the write lock is taken up front).
    public func begin() throws {
        try requireStatement(beginStatement, "BEGIN IMMEDIATE").execute()
    }

    /// Commits the open transaction.
    public func commit() throws {
        try requireStatement(commitStatement, "COMMIT").execute()
        counter.recordCommit()
    }

    /// Rolls back if a transaction is open; safe to call after a failed statement.
    public func rollback() throws {
        guard !isAutocommit else { return }
        try requireStatement(rollbackStatement, "ROLLBACK").execute()
    }

    /// Runs `body` in one transaction: committed if it returns, rolled back if it throws.
    public func inTransaction<T>(_ body: () throws -> T) throws -> T {
        try begin()
        do {
            let result = try body()
            try commit()
            return result
        } catch {
            try? rollback()
            throw error
        }
    }

    /// True outside a transaction.
    public var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    private func requireStatement(_ statement: StoreStatement?, _ sql: String) throws -> StoreStatement {
        if let statement { return statement }
        return try prepare(sql)
    }

    // MARK: Facts

    /// The rowid of the last row an INSERT added on this connection. Setting it (to 0, say) before
    /// an upsert tells afterwards whether the upsert inserted, since its update path leaves it alone.
    public var lastInsertRowid: Int64 {
        get { sqlite3_last_insert_rowid(handle) }
        set { sqlite3_set_last_insert_rowid(handle, newValue) }
    }

    /// Rows inserted, updated or deleted since the connection opened (triggers and cascades excluded).
    public var totalChanges: Int64 { sqlite3_total_changes64(handle) }

    /// SQLite's limit on bound parameters in one statement.
    public var variableLimit: Int { Int(sqlite3_limit(handle, SQLITE_LIMIT_VARIABLE_NUMBER, -1)) }

    /// The library's version, as `sqlite3_libversion` reports it.
    public static var sqliteVersion: String { String(cString: sqlite3_libversion()) }

    /// The options the library was compiled with (`PRAGMA compile_options`): they change plans and counts.
    package static var compileOptions: [String] {
        var options: [String] = []
        var index: Int32 = 0
        while let option = sqlite3_compileoption_get(index) {
            options.append(String(cString: option))
            index += 1
        }
        return options
    }
}
