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
    /// INSERT the record an occurrence describes, or UPDATE the stored one (only the columns the
    /// occurrence gives, when it leaves some out); its pk and the listing stamp it now has.
    let save: (Database, ObjectToWrite, StoredRow?) throws -> StoredRow
    /// `upsert`: one INSERT ... ON CONFLICT DO UPDATE, its pk returned; the listing stamp keeps
    /// its larger value, and a column the occurrence leaves out its stored one.
    let upsert: (Database, ObjectToWrite) throws -> Int64
    /// idcache's first pass: the key and attributes alone, inserted or updated (those the
    /// occurrence gives), foreign keys left as they are; its pk.
    let upsertAttributes: (Database, ObjectToWrite) throws -> Int64
    /// idcache's second pass: UPDATE the foreign keys alone, those the occurrence gives.
    let setForeignKeys: (Database, Int64, ObjectToWrite) throws -> Void
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
        let keepLargerListing: [ColumnAssignment] =
            tracksListing
            ? [Column(Schema.listedColumn).set(to: SQL(sql: "max(\(Schema.listedColumn), excluded.\(Schema.listedColumn))"))]
            : []
        // Absent is not null: the payload's columns, in `leavesOut`'s order, split by whether a
        // partial occurrence gives them. Its update writes the given ones and the stamps, which
        // `update(db)` writes for a whole object too; its upsert leaves the others alone.
        let payloadColumns = attributeColumns + foreignKeyColumns
        let stampColumns = [generation] + (tracksListing ? [Column(Schema.listedColumn)] : [])
        func columns(of occurrence: BatchOccurrence, leftOut: Bool) -> [Column] {
            payloadColumns.indices.filter { occurrence.leavesOut(column: $0) == leftOut }.map { payloadColumns[$0] }
        }
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
            if stored == nil {
                try record.insert(db)
            } else if object.occurrence.isPartial {
                try record.update(db, columns: columns(of: object.occurrence, leftOut: false) + stampColumns)
            } else {
                try record.update(db)
            }
            return StoredRow(pk: record.pk ?? 0, listed: record.importListed)
        }
        upsert = { db, object in
            var record = Record.make(object)
            let keep = object.occurrence.isPartial ? columns(of: object.occurrence, leftOut: true).map(\.noOverwrite) : []
            if keepLargerListing.isEmpty, keep.isEmpty {
                try record.upsert(db)
                return record.pk ?? 0
            }
            return try record.upsertAndFetch(db, onConflict: [Record.keyColumn], doUpdate: { _ in keep + keepLargerListing }).pk ?? 0
        }
        upsertAttributes = { db, object in
            var record = Record.make(object.withoutForeignKeys)
            let occurrence = object.occurrence
            return try record.upsertAndFetch(
                db, onConflict: [Record.keyColumn], updating: .noColumnUnlessSpecified,
                doUpdate: { excluded in
                    // Attributes come first among the payload's columns: position i is attribute i.
                    attributeColumns.enumerated().map { position, column in
                        occurrence.leavesOut(column: position) ? column.noOverwrite : column.set(to: excluded[column])
                    } + [generation.set(to: excluded[generation])] + keepLargerListing
                }
            ).pk ?? 0
        }
        setForeignKeys = { db, pk, object in
            let assignments = foreignKeyColumns.indices.compactMap { index -> ColumnAssignment? in
                object.occurrence.leavesOut(column: attributeColumns.count + index)
                    ? nil : foreignKeyColumns[index].set(to: object.foreignKeys[index])
            }
            guard !assignments.isEmpty else { return }
            try Record.filter(Column("pk") == pk).updateAll(db, assignments)
        }
        warm = { db in
            _ = try db.columns(in: Record.databaseTableName)
            _ = try db.primaryKey(Record.databaseTableName)
            _ = try db.indexes(on: Record.databaseTableName)
            _ = try db.table(Record.databaseTableName, hasUniqueKey: [Record.keyColumn])
        }
    }
}

/// An object as a strategy writes it: the occurrence whose values it writes (the members that
/// occurrence leaves out keep their stored values), the pks of its to-one targets, and the import's
/// stamp.
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
