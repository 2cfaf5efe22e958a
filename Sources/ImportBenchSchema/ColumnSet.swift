/// A set of an entity's columns by position: its attributes first, then its to-one relationships
/// (the order of `Entity.attributes` and `Entity.toOne`). It names the members an occurrence left
/// out, which an update must keep, and so which statement writes it; empty for a whole object,
/// without allocating.
package struct ColumnSet: Hashable, Sendable {
    private var low: UInt64 = 0
    /// Positions from 64 on, in words of 64: entities that wide are rare.
    private var high: [UInt64] = []

    package init() {}

    /// Positions below 64, one bit each.
    package init(bits: UInt64) {
        low = bits
    }

    package init(_ positions: some Sequence<Int>) {
        for position in positions { insert(position) }
    }

    package var isEmpty: Bool { low == 0 && high.allSatisfy { $0 == 0 } }

    package func contains(_ position: Int) -> Bool {
        if position < 64 { return low & (1 << UInt64(position)) != 0 }
        let word = position / 64 - 1
        return word < high.count && high[word] & (1 << UInt64(position % 64)) != 0
    }

    package mutating func insert(_ position: Int) {
        precondition(position >= 0, "a negative column position")
        if position < 64 {
            low |= 1 << UInt64(position)
            return
        }
        let word = position / 64 - 1
        if word >= high.count { high += Array(repeating: 0, count: word + 1 - high.count) }
        high[word] |= 1 << UInt64(position % 64)
    }

    /// Equal sets hash and compare equal however many empty high words they carry.
    package static func == (lhs: ColumnSet, rhs: ColumnSet) -> Bool {
        lhs.low == rhs.low && lhs.trimmedHigh == rhs.trimmedHigh
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(low)
        hasher.combine(trimmedHigh)
    }

    private var trimmedHigh: ArraySlice<UInt64> {
        var end = high.count
        while end > 0, high[end - 1] == 0 { end -= 1 }
        return high[..<end]
    }
}
