import ImportBenchStore

/// The harness's own table in a store: one row per import, giving it a generation (the mark
/// strategies write with every row) and, with `--checkpoint`, the last committed batch. Updated in
/// the same transaction as the batch it records, so a killed import resumes exactly after it.
struct ImportLedger {
    static let table = "importbench_import"

    /// Where a committed import stands: `batches` of `pass` are committed, and the pass's end work too
    /// when `passFinished`.
    struct Entry: Equatable {
        var generation: Int64
        var identity: String
        var pass: Int
        var batches: Int
        var passFinished: Bool
        var completed: Bool

        /// Whether the import recorded any committed batch (only checkpointed imports record them).
        var hasCommittedWork: Bool { batches > 0 || pass > 0 || passFinished }

        /// What a refusal says stays committed: "12 batches of pass 1".
        var committedDescription: String {
            "\(batches) batch\(batches == 1 ? "" : "es") of pass \(pass + 1)" + (passFinished ? ", that pass finished" : "")
        }
    }

    private let store: StoreConnection

    init(store: StoreConnection) {
        self.store = store
    }

    static let ddl = """
        CREATE TABLE IF NOT EXISTS \(table) (generation INTEGER PRIMARY KEY, identity TEXT NOT NULL, \
        pass INTEGER NOT NULL DEFAULT 0, batches INTEGER NOT NULL DEFAULT 0, \
        pass_finished INTEGER NOT NULL DEFAULT 0, completed INTEGER NOT NULL DEFAULT 0)
        """

    /// The newest import the store records, or nil when it has no ledger (not a store bench wrote).
    func latest() throws -> Entry? {
        let exists = try store.prepare("SELECT count(*) FROM sqlite_schema WHERE name = '\(Self.table)'").scalarInt64() ?? 0
        guard exists > 0 else { return nil }
        let statement = try store.prepare(
            "SELECT generation, identity, pass, batches, pass_finished, completed FROM \(Self.table) ORDER BY generation DESC LIMIT 1")
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        guard case .text(let identity) = statement.value(at: 1) else { return nil }
        return Entry(
            generation: statement.int64(at: 0), identity: identity, pass: Int(statement.int64(at: 2)),
            batches: Int(statement.int64(at: 3)), passFinished: statement.int64(at: 4) != 0, completed: statement.int64(at: 5) != 0)
    }

    /// Opens a new import's row; its generation is above every earlier one's.
    func begin(identity: String) throws -> Int64 {
        let statement = try store.prepare("INSERT INTO \(Self.table) (identity) VALUES (?)")
        statement.bind(.text(identity), at: 1)
        try statement.execute()
        return store.lastInsertRowid
    }

    func record(generation: Int64, pass: Int, batches: Int, passFinished: Bool, completed: Bool) throws {
        let statement = try store.prepare(
            "UPDATE \(Self.table) SET pass = ?, batches = ?, pass_finished = ?, completed = ? WHERE generation = ?")
        statement.bind(Int64(pass), at: 1)
        statement.bind(Int64(batches), at: 2)
        statement.bind(Int64(passFinished ? 1 : 0), at: 3)
        statement.bind(Int64(completed ? 1 : 0), at: 4)
        statement.bind(generation, at: 5)
        try statement.execute()
    }
}
