/// One of the SQLite settings people try first on a slow import, beyond the journal and
/// synchronous (`bench run --pragma NAME=VALUE`): applied to the store and to every connection
/// that imports into it, the ceiling's and the C reference's alike, and recorded with each result.
package struct StorePragma: Sendable, Codable, Equatable, Hashable, CustomStringConvertible {
    /// The settings `--pragma` takes; any other is refused with this list.
    package enum Name: String, Sendable, Codable, CaseIterable {
        case tempStore = "temp_store"
        case cacheSize = "cache_size"
        case mmapSize = "mmap_size"
        case pageSize = "page_size"
        case lockingMode = "locking_mode"
        case walAutocheckpoint = "wal_autocheckpoint"
        case journalSizeLimit = "journal_size_limit"

        /// What a value must be, for the error that refuses another.
        var expected: String {
            switch self {
            case .tempStore: return "default, file or memory"
            case .cacheSize: return "an integer (pages; negative: KiB, as -65536 for 64 MiB)"
            case .mmapSize: return "a number of bytes, 0 or more"
            case .pageSize: return "a power of two from 512 to 65536"
            case .lockingMode: return "normal or exclusive"
            case .walAutocheckpoint: return "a number of pages, 0 or more (0: no automatic checkpoint)"
            case .journalSizeLimit: return "a number of bytes, or -1 for no limit"
            }
        }
    }

    package let name: Name
    /// As SQLite takes it, lower-case.
    package let value: String

    /// Refuses a value SQLite would ignore or misread, saying what `name` takes.
    package init(name: Name, value text: String) throws(RunError) {
        let value = text.trimmingCharacters(in: .whitespaces).lowercased()
        let integer = Int64(value)
        let valid: Bool
        switch name {
        case .tempStore: valid = ["default", "file", "memory"].contains(value)
        case .cacheSize: valid = integer != nil
        case .mmapSize, .walAutocheckpoint: valid = (integer ?? -1) >= 0
        case .pageSize: valid = integer.map { (512...65_536).contains($0) && $0.nonzeroBitCount == 1 } ?? false
        case .lockingMode: valid = ["normal", "exclusive"].contains(value)
        case .journalSizeLimit: valid = (integer ?? -2) >= -1
        }
        guard valid else { throw .refused(.invalidPragmaValue(name: name, value: text)) }
        self.name = name
        self.value = value
    }

    /// `NAME=VALUE[,VALUE...]`: the pragma with each value, for a sweep.
    package static func sweep(parsing text: String) throws(RunError) -> [StorePragma] {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let name = Name(rawValue: parts[0].trimmingCharacters(in: .whitespaces).lowercased()) else {
            throw .refused(.unknownPragma(text: text))
        }
        let values = parts[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !values.isEmpty else { throw .refused(.invalidPragmaValue(name: name, value: "")) }
        var pragmas: [StorePragma] = []
        for value in values { pragmas.append(try StorePragma(name: name, value: value)) }
        return pragmas
    }

    /// The statement that applies it.
    var statement: String { "PRAGMA \(name.rawValue) = \(value)" }

    /// Whether every connection sets it for itself (all but page_size, which the file keeps).
    var isPerConnection: Bool { name != .pageSize }

    package var description: String { "\(name.rawValue)=\(value)" }
}
