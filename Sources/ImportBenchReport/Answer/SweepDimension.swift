/// Something a sweep varies between groups of runs: the payload's scale, the batch size, the
/// journal, synchronous, one `--pragma` setting, or decoding ahead. The answer says where the winner changes along
/// each, so each needs a name and words for its values.
package enum SweepDimension: Hashable, Sendable, Comparable {
    case scale
    case batchSize
    case journal
    case synchronous
    /// A `--pragma` setting by its name, such as temp_store.
    case pragma(String)
    /// Whether each next batch was decoded on a thread of its own (`--decode-ahead`).
    case decodeAhead

    /// How a sentence or an axis names it.
    package var name: String {
        switch self {
        case .scale: return "scale"
        case .batchSize: return "batch size"
        case .journal: return "journal"
        case .synchronous: return "synchronous"
        case .pragma(let name): return name
        case .decodeAhead: return "decoding ahead"
        }
    }

    /// A value as a sentence shows it: `4x`, `batch all`, `temp_store=memory`.
    package func describe(_ value: String) -> String {
        switch self {
        case .scale: return value
        case .batchSize: return "batch \(value)"
        case .journal: return "journal \(value.isEmpty ? "unknown" : value)"
        case .synchronous: return "synchronous \(value.isEmpty ? "unknown" : value)"
        case .pragma(let name): return "\(name)=\(value.isEmpty ? "unset" : value)"
        case .decodeAhead: return "decode ahead \(value.isEmpty ? "off" : value)"
        }
    }

    /// Whether its values have a size order, so "up to 4x; from 16x" reads right; a setting's values
    /// are only different, and are named one by one.
    package var isOrdered: Bool { self == .scale || self == .batchSize }

    /// A setting (SQLite's, or decoding ahead): the ceiling's own time may move with it, so wall
    /// times are drawn as well as multiples.
    package var isStoreSetting: Bool { !isOrdered }

    private var rank: Int {
        switch self {
        case .scale: return 0
        case .batchSize: return 1
        case .journal: return 2
        case .synchronous: return 3
        case .pragma: return 4
        case .decodeAhead: return 5
        }
    }

    /// Scale, batch size, journal, synchronous, pragmas by name, then decoding ahead: the order sentences and charts take.
    package static func < (lhs: SweepDimension, rhs: SweepDimension) -> Bool {
        if lhs.rank != rhs.rank { return lhs.rank < rhs.rank }
        if case .pragma(let left) = lhs, case .pragma(let right) = rhs { return left < right }
        return false
    }
}
