import GRDB
import ImportBench

/// One entity's record type and what the strategies do with it, as values: a strategy holds one
/// per entity of the schema it imports, whichever record type each is.
struct RecordTable {
    let name: String
    /// SELECT the whole record by its natural key (`fetchOne(db, key:)`), as an app that
    /// materialises the object would: its pk and listing stamp.
    let find: (Database, String) throws -> StoredRow?
    /// SELECT the pk alone by key: resolving a reference.
    let findPK: (Database, String) throws -> Int64?
    /// SELECT the whole records whose keys are among these (`filter(keys.contains(...))`): prewarm.
    let findAll: (Database, [String]) throws -> [String: StoredRow]
    /// INSERT the record an occurrence describes, or UPDATE the stored one; its pk and the listing
    /// stamp it now has.
    let save: (Database, ObjectToWrite, StoredRow?) throws -> StoredRow
    /// `upsert`: one INSERT ... ON CONFLICT DO UPDATE, its pk returned; the listing stamp keeps
    /// its larger value.
    let upsert: (Database, ObjectToWrite) throws -> Int64
    /// idcache's first pass: the key and attributes alone, inserted or updated, foreign keys left
    /// as they are; its pk.
    let upsertAttributes: (Database, ObjectToWrite) throws -> Int64
    /// idcache's second pass: UPDATE the foreign keys alone.
    let setForeignKeys: (Database, Int64, [Int64?]) throws -> Void
    /// Loads what GRDB learns of the table once (columns, primary key, unique keys), so no
    /// introspection runs inside the measured import.
    let warm: (Database) throws -> Void

    init<Record: ImportedRecord>(_ type: Record.Type, entity: Entity, tracksListing: Bool) {
        name = entity.name
        let key = Column(Record.keyColumn)
        let foreignKeyColumns = entity.toOne.map { Column($0.column) }
        let attributeColumns = entity.attributes.map { Column($0.name) }
        let generation = Column(Schema.generationColumn)
        // A copy that lists no children must not undo an occurrence that listed them.
        let keepLargerListing: [ColumnAssignment] = tracksListing
            ? [Column(Schema.listedColumn).set(to: SQL(sql: "max(\(Schema.listedColumn), excluded.\(Schema.listedColumn))"))]
            : []
        find = { db, value in
            try Record.fetchOne(db, key: [Record.keyColumn: value]).map { StoredRow(pk: $0.pk ?? 0, listed: $0.importListed) }
        }
        findPK = { db, value in
            try Record.select(Column("pk"), as: Int64.self).filter(key == value).fetchOne(db)
        }
        findAll = { db, values in
            var found: [String: StoredRow] = [:]
            for record in try Record.filter(values.contains(key)).fetchAll(db) {
                found[record.naturalKey] = StoredRow(pk: record.pk ?? 0, listed: record.importListed)
            }
            return found
        }
        save = { db, object, stored in
            var record = Record.make(object, stored: stored)
            if stored == nil { try record.insert(db) } else { try record.update(db) }
            return StoredRow(pk: record.pk ?? 0, listed: record.importListed)
        }
        upsert = { db, object in
            var record = Record.make(object)
            if keepLargerListing.isEmpty {
                try record.upsert(db)
                return record.pk ?? 0
            }
            return try record.upsertAndFetch(db, onConflict: [Record.keyColumn], doUpdate: { _ in keepLargerListing }).pk ?? 0
        }
        upsertAttributes = { db, object in
            var record = Record.make(object.withoutForeignKeys)
            let updated = attributeColumns + [generation]
            return try record.upsertAndFetch(
                db, onConflict: [Record.keyColumn], updating: .noColumnUnlessSpecified,
                doUpdate: { excluded in updated.map { $0.set(to: excluded[$0]) } + keepLargerListing }
            ).pk ?? 0
        }
        setForeignKeys = { db, pk, foreignKeys in
            guard !foreignKeyColumns.isEmpty else { return }
            try Record.filter(Column("pk") == pk).updateAll(db, zip(foreignKeyColumns, foreignKeys).map { $0.set(to: $1) })
        }
        warm = { db in
            _ = try db.columns(in: Record.databaseTableName)
            _ = try db.primaryKey(Record.databaseTableName)
            _ = try db.indexes(on: Record.databaseTableName)
            _ = try db.table(Record.databaseTableName, hasUniqueKey: [Record.keyColumn])
        }
    }
}

/// An object as a strategy writes it: the occurrence whose values win, the pks of its to-one
/// targets, and the import's stamp.
struct ObjectToWrite {
    let occurrence: BatchOccurrence
    let foreignKeys: [Int64?]
    /// Whether the object lists its children: its occurrence's, or any of its occurrences' in a batch.
    let listsChildren: Bool
    let stamp: ImportStamp

    init(_ occurrence: BatchOccurrence, foreignKeys: [Int64?], stamp: ImportStamp, listsChildren: Bool? = nil) {
        self.occurrence = occurrence
        self.foreignKeys = foreignKeys
        self.listsChildren = listsChildren ?? occurrence.listsChildren
        self.stamp = stamp
    }

    /// The same object with no relationship: idcache's first pass writes none.
    var withoutForeignKeys: ObjectToWrite {
        ObjectToWrite(occurrence, foreignKeys: foreignKeys.map { _ in nil }, stamp: stamp, listsChildren: listsChildren)
    }
}

extension ImportedRecord {
    static func make(_ object: ObjectToWrite, stored: StoredRow? = nil) -> Self {
        make(object.occurrence, foreignKeys: object.foreignKeys, stamp: object.stamp, stored: stored, listsChildren: object.listsChildren)
    }
}
