/// Occurrences per transaction: a count, or the whole payload in one.
package enum BatchSize: Hashable, Sendable {
    case occurrences(Int)
    case all

    package static let `default` = BatchSize.occurrences(1000)

    /// Parses `1000` or `all`; nil for anything else, including zero and negatives.
    package init?(parsing text: String) {
        if text.lowercased() == "all" {
            self = .all
        } else if let count = Int(text), count > 0 {
            self = .occurrences(count)
        } else {
            return nil
        }
    }
}

extension BatchSize: CustomStringConvertible {
    package var description: String {
        switch self {
        case .occurrences(let count): return String(count)
        case .all: return "all"
        }
    }
}
