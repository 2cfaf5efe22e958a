/// How the store's file is kept: the journal and how often SQLite waits for the disk. They change
/// what a commit costs and whether a reader waits for the writer, so every result records them.
package struct StoreSettings: Sendable, Codable, Equatable, CustomStringConvertible {
    package enum Journal: String, Sendable, Codable, CaseIterable {
        /// Write-ahead log: readers go on while a transaction writes.
        case wal
        /// A rollback journal: a writing transaction locks readers out while it commits.
        case delete
    }

    package enum Synchronous: String, Sendable, Codable, CaseIterable {
        case off, normal, full
    }

    package var journal: Journal
    package var synchronous: Synchronous

    package init(journal: Journal = .wal, synchronous: Synchronous = .normal) {
        self.journal = journal
        self.synchronous = synchronous
    }

    /// What apps shipping SQLite commonly choose (and Core Data's default journal).
    package static let `default` = StoreSettings()

    var pragmas: String {
        "PRAGMA journal_mode = \(journal.rawValue.uppercased()); PRAGMA synchronous = \(synchronous.rawValue.uppercased())"
    }

    /// What a second connection to the store must run to share these settings: the journal is the
    /// file's own (set once by bench's connection), the synchronous setting each connection's.
    var connectionPragmas: [String] { ["PRAGMA synchronous = \(synchronous.rawValue.uppercased())"] }

    package var description: String { "journal \(journal.rawValue), synchronous \(synchronous.rawValue)" }
}
