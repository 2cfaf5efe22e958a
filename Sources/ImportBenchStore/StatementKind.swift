import CSQLCounter

/// What an executed statement does, decided once from its SQL when it is prepared.
package enum StatementKind: String, CaseIterable, Sendable {
    /// A SELECT: every execution is one fetch.
    case fetch
    case insert
    case update
    /// An `INSERT ... ON CONFLICT ... DO UPDATE`.
    case upsert
    case delete
    /// Transaction control, pragmas, DDL.
    case other

    /// Classifies by the leading keyword, once when a statement is prepared, so counting costs
    /// nothing per execution. The rules are the SQLite-level counter's own (`importbench_statement_kind`),
    /// so the two counters cannot disagree on a statement's kind.
    package init(sql: String) {
        switch importbench_statement_kind(sql) {
        case Int32(IMPORTBENCH_KIND_FETCH.rawValue): self = .fetch
        case Int32(IMPORTBENCH_KIND_INSERT.rawValue): self = .insert
        case Int32(IMPORTBENCH_KIND_UPDATE.rawValue): self = .update
        case Int32(IMPORTBENCH_KIND_UPSERT.rawValue): self = .upsert
        case Int32(IMPORTBENCH_KIND_DELETE.rawValue): self = .delete
        default: self = .other
        }
    }
}
