/// A value as SQLite stores it; the one currency between records, strategies and the store.
/// Codable, so that an error naming one (a dangling reference's key) crosses processes whole.
public enum StoreValue: Hashable, Sendable, Codable {
    /// SQL NULL.
    case null
    /// A 64-bit integer.
    case integer(Int64)
    /// A double.
    case real(Double)
    /// Text, owned.
    case text(String)

    /// Whether it is SQL NULL.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension StoreValue: CustomStringConvertible {
    /// As SQL would write it: text quoted, NULL spelled out.
    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .text(let value): return "'\(value)'"
        }
    }
}

extension StoreValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByNilLiteral {
    /// A text value.
    public init(stringLiteral value: String) { self = .text(value) }
    /// An integer value.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// NULL.
    public init(nilLiteral: ()) { self = .null }
}
