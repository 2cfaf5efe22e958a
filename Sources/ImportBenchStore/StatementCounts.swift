/// Executions counted by the store, by kind; a value, so a run subtracts its start from its end.
package struct StatementCounts: Hashable, Sendable, Codable {
    package var fetches: Int = 0
    package var inserts: Int = 0
    package var updates: Int = 0
    package var upserts: Int = 0
    package var deletes: Int = 0
    package var others: Int = 0
    /// Committed transactions.
    package var transactions: Int = 0
    /// Virtual machine steps, read from `sqlite3_stmt_status` after each execution.
    package var vmSteps: Int64 = 0

    package init() {}

    /// Every executed statement, whatever its kind.
    package var statements: Int { fetches + inserts + updates + upserts + deletes + others }

    package subscript(kind: StatementKind) -> Int {
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

    package static func - (lhs: StatementCounts, rhs: StatementCounts) -> StatementCounts {
        var result = StatementCounts()
        for kind in StatementKind.allCases { result[kind] = lhs[kind] - rhs[kind] }
        result.transactions = lhs.transactions - rhs.transactions
        result.vmSteps = lhs.vmSteps - rhs.vmSteps
        return result
    }

    package static func + (lhs: StatementCounts, rhs: StatementCounts) -> StatementCounts {
        var result = StatementCounts()
        for kind in StatementKind.allCases { result[kind] = lhs[kind] + rhs[kind] }
        result.transactions = lhs.transactions + rhs.transactions
        result.vmSteps = lhs.vmSteps + rhs.vmSteps
        return result
    }
}
