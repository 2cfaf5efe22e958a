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
    /// More settings (`--pragma`), in the order given; none by default.
    package var pragmas: [StorePragma]

    /// The page size `--pragma page_size` asks, the one setting that shapes the file itself (a
    /// seed store must have been built with it); nil for SQLite's default.
    package var pageSize: Int? {
        pragmas.first { $0.name == .pageSize }.flatMap { Int($0.value) }
    }

    package init(journal: Journal = .wal, synchronous: Synchronous = .normal, pragmas: [StorePragma] = []) {
        self.journal = journal
        self.synchronous = synchronous
        self.pragmas = pragmas
    }

    private enum CodingKeys: String, CodingKey { case journal, synchronous, pragmas }

    /// A value written before `pragmas` existed reads as having none.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        journal = try container.decode(Journal.self, forKey: .journal)
        synchronous = try container.decode(Synchronous.self, forKey: .synchronous)
        pragmas = try container.decodeIfPresent([StorePragma].self, forKey: .pragmas) ?? []
    }

    /// What apps shipping SQLite commonly choose (and Core Data's default journal).
    package static let `default` = StoreSettings()

    /// What a new store's file must be given before its first byte is written (the page size).
    var fileSQL: [String] { pragmas.filter { !$0.isPerConnection }.map(\.statement) }

    /// What the store's first connection runs: the page size before anything is written, then the
    /// journal, synchronous and the rest.
    var setupSQL: String {
        let pageSize = pragmas.filter { !$0.isPerConnection }.map(\.statement)
        let others = pragmas.filter(\.isPerConnection).map(\.statement)
        return
            (pageSize + [
                "PRAGMA journal_mode = \(journal.rawValue.uppercased())", "PRAGMA synchronous = \(synchronous.rawValue.uppercased())",
            ] + others).joined(separator: "; ")
    }

    /// What a second connection to the store must run to share these settings: the journal and
    /// page size are the file's own (set once by bench's connection), the rest each connection's.
    var connectionPragmas: [String] {
        ["PRAGMA synchronous = \(synchronous.rawValue.uppercased())"] + pragmas.filter(\.isPerConnection).map(\.statement)
    }

    /// `temp_store=memory;cache_size=-65536`, as the CSV's `pragmas` column and checkpoints keep it.
    package var pragmaText: String { pragmas.map(\.description).joined(separator: ";") }

    package var description: String {
        (["journal \(journal.rawValue)", "synchronous \(synchronous.rawValue)"] + pragmas.map { "\($0.name.rawValue) \($0.value)" })
            .joined(separator: ", ")
    }
}
