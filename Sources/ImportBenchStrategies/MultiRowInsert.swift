import ImportBenchStore

/// Rows written several to an INSERT (`VALUES (...), (...)`), the way SQLite loads an empty table
/// fastest: one statement of `rowsPerInsert` rows prepared up front, one per shorter remainder when
/// first needed. The caller says how many rows a run of rows holds (`begin`), then binds each row at
/// the parameter `nextRow` returns; a full statement executes as its last row is bound.
final class MultiRowInsert {
    /// Rows per statement: the wanted figure, lowered so a statement stays within the variable limit.
    let rowsPerInsert: Int
    /// Parameters per row.
    let width: Int32
    private let store: StoreConnection
    private let sql: (_ rows: Int) -> String
    private var statements: [Int: StoreStatement] = [:]
    /// The statement rows are bound into now: the full one until a remainder needs its own.
    private var current: StoreStatement
    private var rowsInCurrent = 0
    private var rowsBound = 0
    private var rowsLeft = 0

    /// `sql` gives the INSERT for a number of rows of `width` parameters each.
    init(store: StoreConnection, width: Int, rowsPerInsert: Int, sql: @escaping (_ rows: Int) -> String) throws {
        self.store = store
        self.width = Int32(width)
        self.sql = sql
        self.rowsPerInsert = max(1, min(rowsPerInsert, store.variableLimit / max(width, 1)))
        current = try store.prepare(sql(self.rowsPerInsert))
        statements[self.rowsPerInsert] = current
    }

    /// Starts `rows` rows; every one of them must then be bound before the next `begin`.
    func begin(rows: Int) {
        rowsLeft = rows
        rowsInCurrent = 0
        rowsBound = 0
    }

    /// The statement to bind the next row into and the index of its first parameter.
    @inline(__always)
    func nextRow() throws -> (statement: StoreStatement, first: Int32) {
        if rowsBound == rowsInCurrent { try startStatement() }
        let first = Int32(rowsBound) * width + 1
        rowsBound += 1
        // The statement is returned before its row is bound; `rowBound` executes it once full.
        return (current, first)
    }

    /// Executes the statement when the row just bound was its last.
    @inline(__always)
    func rowBound() throws {
        guard rowsBound == rowsInCurrent else { return }
        try current.execute()
    }

    private func startStatement() throws {
        let rows = min(rowsPerInsert, rowsLeft)
        precondition(rows > 0, "more rows bound than begin(rows:) announced")
        rowsLeft -= rows
        rowsInCurrent = rows
        rowsBound = 0
        if let statement = statements[rows] {
            current = statement
        } else {
            let statement = try store.prepare(sql(rows))
            statements[rows] = statement
            current = statement
        }
    }
}

extension MultiRowInsert {
    /// Writes a set's pairs (source pk, target pk), two parameters a row, sorted first into the join
    /// table's key order, as its rows lie. `pairs` is left sorted, for the caller to reuse.
    func writePairs(_ pairs: inout [(source: Int64, target: Int64)]) throws {
        guard !pairs.isEmpty else { return }
        pairs.sort { ($0.source, $0.target) < ($1.source, $1.target) }
        begin(rows: pairs.count)
        for pair in pairs {
            let (statement, first) = try nextRow()
            statement.bind(pair.source, at: first)
            statement.bind(pair.target, at: first + 1)
            try rowBound()
        }
    }
}
