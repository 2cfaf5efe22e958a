import Foundation

extension RecordValue {
    /// Whether `self` sorts before `other` as SQLite's BINARY collation sorts an index: NULL, then
    /// numbers by value, then text byte by byte. Prewarm binds each chunk of keys in this order, so
    /// SQLite builds its IN list's index by appending rather than inserting at random. Only speed
    /// depends on it (an integer beyond 2^53 against a real may compare loosely): any order finds
    /// the same rows.
    @inlinable package func sortsBefore(_ other: RecordValue) -> Bool {
        switch (self, other) {
        case (.integer(let left), .integer(let right)): return left < right
        case (.text(let left), .text(let right)): return Self.bytes(left.bytes, before: right.bytes)
        case (.real(let left), .real(let right)): return left < right
        case (.integer(let left), .real(let right)): return Double(left) < right
        case (.real(let left), .integer(let right)): return left < Double(right)
        default: return rank < other.rank
        }
    }

    @usableFromInline var rank: Int {
        switch self {
        case .null, .absent: 0
        case .integer, .real: 1
        case .text: 2
        }
    }

    @inlinable static func bytes(_ left: UnsafeRawBufferPointer, before right: UnsafeRawBufferPointer) -> Bool {
        let common = min(left.count, right.count)
        if common > 0, let leftBase = left.baseAddress, let rightBase = right.baseAddress {
            let order = memcmp(leftBase, rightBase, common)
            if order != 0 { return order < 0 }
        }
        return left.count < right.count
    }
}
