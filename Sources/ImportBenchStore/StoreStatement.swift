import CSQLite

/// A prepared statement, reused across executions and finalized when released.
/// Not Sendable: it belongs to its connection's thread.
public final class StoreStatement {
    /// The SQL it was prepared from.
    public let sql: String
    package let kind: StatementKind
    let handle: OpaquePointer
    private unowned let connection: StoreConnection
    /// The connection's counter, held directly: reaching it through the unowned connection costs a
    /// reference-count round trip on every step and reset.
    private let counter: StatementCounter
    /// True between the first step of an execution and the reset that ends it. Behind a pointer:
    /// as a stored `var` it cost a runtime exclusivity check on every step and reset.
    private let executing: UnsafeMutablePointer<Bool>
    /// The connection's `countsVMSteps`, held directly for the same reason as `counter`.
    private let countsVMSteps: Bool

    init(connection: StoreConnection, sql: String) throws {
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard code == SQLITE_OK, let handle else {
            sqlite3_finalize(handle)
            throw StoreError.from(connection.handle, code: code, sql: sql)
        }
        self.sql = sql
        self.kind = StatementKind(sql: sql)
        self.handle = handle
        self.connection = connection
        self.counter = connection.counter
        self.countsVMSteps = connection.countsVMSteps
        executing = .allocate(capacity: 1)
        executing.initialize(to: false)
    }

    deinit {
        sqlite3_finalize(handle)
        executing.deallocate()
    }

    /// How many `?` parameters it takes.
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    // MARK: Binding (indexes start at 1, as in SQLite)

    /// Binds a value of any type; text is copied.
    @inline(__always)
    public func bind(_ value: StoreValue, at index: Int32) {
        switch value {
        case .null: sqlite3_bind_null(handle, index)
        case .integer(let integer): sqlite3_bind_int64(handle, index, integer)
        case .real(let real): sqlite3_bind_double(handle, index, real)
        case .text(let text): bind(text, at: index)
        }
    }

    /// Binds an integer.
    @inline(__always)
    public func bind(_ integer: Int64, at index: Int32) {
        sqlite3_bind_int64(handle, index, integer)
    }

    /// Binds a floating-point number.
    @inline(__always)
    public func bind(_ real: Double, at index: Int32) {
        sqlite3_bind_double(handle, index, real)
    }

    /// Binds text without a copy (SQLITE_STATIC), as a C program binds from its own buffers. The
    /// caller keeps the bytes alive and unchanged through every execution that uses the binding,
    /// and binds the parameter anew before executing once they are gone. Valid UTF-8 only.
    @usableFromInline @inline(__always)
    package func bindBorrowedText(_ bytes: UnsafeRawBufferPointer, at index: Int32) {
        if let base = bytes.baseAddress {
            sqlite3_bind_text(handle, index, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil)
        } else {
            sqlite3_bind_text(handle, index, "", 0, nil)
        }
    }

    /// Binds NULL.
    public func bindNull(at index: Int32) {
        sqlite3_bind_null(handle, index)
    }

    /// SQLite copies the text (SQLITE_TRANSIENT): a Swift string's bytes are only lent for the call.
    /// Read through the UTF-8 view, which lends a native string's bytes without copying the string.
    public func bind(_ text: String, at index: Int32) {
        if text.utf8.withContiguousStorageIfAvailable({ bindText($0, at: index) }) == nil {
            var copy = text
            copy.withUTF8 { bindText($0, at: index) }
        }
    }

    @inline(__always)
    private func bindText(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int32) {
        if let base = bytes.baseAddress {
            _ = base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text(handle, index, $0, Int32(bytes.count), csqlite_transient())
            }
        } else {
            sqlite3_bind_text(handle, index, "", 0, csqlite_transient())
        }
    }

    /// Binds values to parameters 1, 2, ... in order.
    public func bind(_ values: [StoreValue]) {
        for (offset, value) in values.enumerated() { bind(value, at: Int32(offset + 1)) }
    }

    // MARK: Execution

    /// Advances the statement; true when a row is available. The first step of an execution is counted.
    @discardableResult
    public func step() throws -> Bool {
        if !executing.pointee {
            executing.pointee = true
            counter.recordExecution(of: kind)
        }
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW:
            return true
        case SQLITE_DONE:
            return false
        default:
            let error = StoreError.from(connection.handle, code: code, sql: sql)
            reset()
            throw error
        }
    }

    /// Ends the current execution so the statement can run again; bindings are kept.
    public func reset() {
        if executing.pointee {
            executing.pointee = false
            if countsVMSteps { counter.recordVMSteps(sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_VM_STEP, 1)) }
        }
        sqlite3_reset(handle)
    }

    /// Runs a statement that returns no rows to completion, then resets it.
    public func execute() throws {
        defer { reset() }
        while try step() {}
    }

    /// Runs the statement and returns the first column of its first row, if any.
    public func scalarInt64() throws -> Int64? {
        defer { reset() }
        guard try step() else { return nil }
        if sqlite3_column_type(handle, 0) == SQLITE_NULL { return nil }
        return sqlite3_column_int64(handle, 0)
    }

    // MARK: Reading the current row

    /// How many columns a row of its result has.
    public var columnCount: Int32 { sqlite3_column_count(handle) }

    /// The name SQLite gives the result column (its declared name for `SELECT *`).
    public func columnName(at column: Int32) -> String {
        sqlite3_column_name(handle, column).map { String(cString: $0) } ?? ""
    }

    /// The current row's column as an integer (0 for NULL), columns counted from 0.
    @inline(__always)
    public func int64(at column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    /// Whether the current row's column is NULL.
    public func isNull(at column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    /// The current row's column as SQLite stored it.
    public func value(at column: Int32) -> StoreValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_NULL:
            return .null
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, column))
        default:
            guard let bytes = sqlite3_column_text(handle, column) else { return .text("") }
            let count = Int(sqlite3_column_bytes(handle, column))
            return .text(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self))
        }
    }

    /// The values of the current row, in column order.
    public func row() -> [StoreValue] {
        (0..<columnCount).map { value(at: $0) }
    }
}
