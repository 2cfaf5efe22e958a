import GRDB
import ImportBench

/// A table's row as an app declares it: a Codable record that GRDB fetches (decoding every column)
/// and persists. What the import adds is how one is made from a payload occurrence.
protocol ImportedRecord: Codable, FetchableRecord, MutablePersistableRecord {
    /// The natural key's column, unique in the table.
    static var keyColumn: String { get }
    /// The columns the payload fills, in the schema's order: the attributes, then the foreign keys.
    /// Checked against the schema before a run, so a record that drifted from it stops the run
    /// instead of writing a value into the wrong column.
    static var payloadColumns: [String] { get }

    /// The row's id, nil until inserted.
    var pk: Int64? { get set }
    /// The natural key's value (every key of the schemas this example knows is text).
    var naturalKey: String { get }
    /// The import that last wrote the row (`Schema.generationColumn`).
    var importGeneration: Int64 { get set }
    /// `Schema.listedColumn`, on a table that has it; nil elsewhere, where it is never encoded.
    var importListed: Int64? { get set }

    /// The record `occurrence` describes: its key and attributes, with `foreignKeys` the pks of
    /// its to-one targets (nil for a NULL relationship), in the schema's order. A member the payload
    /// left out reads nil too: a new row stores NULL for it, an update leaves its column out.
    init(_ occurrence: BatchOccurrence, foreignKeys: [Int64?])
}

extension ImportedRecord {
    var importListed: Int64? {
        get { nil }
        set {}
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        pk = inserted.rowID
    }

    /// The record for `occurrence`, stamped for `import`: its generation, and its listing stamp
    /// kept at the larger of the stored one and this occurrence's (a copy that lists no children
    /// must not undo an earlier occurrence that listed them).
    /// `listsChildren` is the occurrence's own, or, for an object written once per batch, whether
    /// any of its occurrences listed them.
    static func make(
        _ occurrence: BatchOccurrence, foreignKeys: [Int64?], stamp: ImportStamp, stored: StoredRow? = nil,
        listsChildren: Bool? = nil
    ) -> Self {
        var record = Self(occurrence, foreignKeys: foreignKeys)
        record.pk = stored?.pk
        record.importGeneration = stamp.generation
        let lists = listsChildren ?? occurrence.listsChildren
        if let listed = stamp.listing.value(entity: occurrence.entity, listsChildren: lists) {
            record.importListed = max(listed, stored?.listed ?? 0)
        }
        return record
    }
}

/// What an import writes beside the payload's values: its generation and the listing stamp.
struct ImportStamp: Sendable {
    let generation: Int64
    let listing: ListingStamp

    init(context: StrategyContext) {
        generation = context.generation
        listing = ListingStamp(context: context)
    }
}

/// A stored row's id and listing stamp: what an update keeps.
struct StoredRow: Sendable {
    var pk: Int64
    var listed: Int64?
}

// MARK: Reading a payload value as a Swift value

extension RecordValue {
    /// A boolean attribute, which a payload gives as true/false and a batch holds as 1/0.
    var bool: Bool? { int64.map { $0 != 0 } }
}
