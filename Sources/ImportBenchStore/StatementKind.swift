/// What an executed statement does, decided once from its SQL when it is prepared.
public enum StatementKind: String, CaseIterable, Sendable {
    /// A SELECT: every execution is one fetch.
    case fetch
    case insert
    case update
    /// An `INSERT ... ON CONFLICT ... DO UPDATE`.
    case upsert
    case delete
    /// Transaction control, pragmas, DDL.
    case other

    /// Classifies by the leading keyword, so counting costs nothing per execution.
    public init(sql: String) {
        let upper = sql.uppercased()
        let keyword = Self.leadingKeyword(of: upper)
        switch keyword {
        case "SELECT", "VALUES":
            self = .fetch
        case "WITH":
            // A CTE can lead any statement; the verb after it decides.
            if upper.contains("INSERT") { self = Self.classifyInsert(upper) }
            else if upper.contains("UPDATE") { self = .update }
            else if upper.contains("DELETE") { self = .delete }
            else { self = .fetch }
        case "INSERT", "REPLACE":
            self = Self.classifyInsert(upper)
        case "UPDATE":
            self = .update
        case "DELETE":
            self = .delete
        default:
            self = .other
        }
    }

    private static func classifyInsert(_ upper: String) -> StatementKind {
        upper.contains("ON CONFLICT") && upper.contains("DO UPDATE") ? .upsert : .insert
    }

    private static func leadingKeyword(of upper: String) -> Substring {
        var rest = upper[...]
        while true {
            rest = rest.drop(while: { $0.isWhitespace })
            if rest.hasPrefix("--") {
                rest = rest.drop(while: { $0 != "\n" })
            } else if rest.hasPrefix("/*") {
                rest = rest.dropFirst(2)
                while !rest.isEmpty && !rest.hasPrefix("*/") { rest = rest.dropFirst() }
                rest = rest.dropFirst(2)
            } else {
                break
            }
        }
        return rest.prefix(while: { $0.isLetter })
    }
}
