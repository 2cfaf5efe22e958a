/// Executions counted by the store, by kind; a value, so a run subtracts its start from its end.
public struct StatementCounts: Hashable, Sendable, Codable {
    public var fetches: Int = 0
    public var inserts: Int = 0
    public var updates: Int = 0
    public var upserts: Int = 0
    public var deletes: Int = 0
    public var others: Int = 0
    /// Committed transactions.
    public var transactions: Int = 0
    /// Virtual machine steps, read from `sqlite3_stmt_status` after each execution.
    public var vmSteps: Int64 = 0

    public init() {}

    /// Every executed statement, whatever its kind.
    public var statements: Int { fetches + inserts + updates + upserts + deletes + others }

    public subscript(kind: StatementKind) -> Int {
        get {
            switch kind {
            case .fetch: return fetches
            case .insert: return inserts
            case .update: return updates
            case .upsert: return upserts
            case .delete: return deletes
            case .other: return others
            }
        }
        set {
            switch kind {
            case .fetch: fetches = newValue
            case .insert: inserts = newValue
            case .update: updates = newValue
            case .upsert: upserts = newValue
            case .delete: deletes = newValue
            case .other: others = newValue
            }
        }
    }

    public static func - (lhs: StatementCounts, rhs: StatementCounts) -> StatementCounts {
        var result = StatementCounts()
        for kind in StatementKind.allCases { result[kind] = lhs[kind] - rhs[kind] }
        result.transactions = lhs.transactions - rhs.transactions
        result.vmSteps = lhs.vmSteps - rhs.vmSteps
        return result
    }

    public static func + (lhs: StatementCounts, rhs: StatementCounts) -> StatementCounts {
        var result = StatementCounts()
        for kind in StatementKind.allCases { result[kind] = lhs[kind] + rhs[kind] }
        result.transactions = lhs.transactions + rhs.transactions
        result.vmSteps = lhs.vmSteps + rhs.vmSteps
        return result
    }
}
