import GRDB
import ImportBench

/// bench's idcache, as a GRDB user writes it: two passes. First each object of each batch is
/// upserted without its relationships (`upsertAndFetch`, updating the attributes alone), its pk
/// kept for the whole import; then the foreign keys are set (`updateAll`) and the set pairs
/// written from that dictionary, a fetch only for an object the payload never wrote. A member an
/// occurrence leaves out is neither updated nor set (`Column.noOverwrite`, no assignment).
public final class GRDBIDCache: ImportStrategy {
    public static let name = "grdb-idcache"
    public static let summary = "GRDB, two passes: upsert all objects keeping key -> pk, then set relationships from that dictionary"
    public static let passes = 2

    public var transactionScope: TransactionScope { .strategy }
    private let store: GRDBStore
    private var cache: [[String: Int64]]

    public init(context: StrategyContext) throws {
        store = try GRDBStore(context: context)
        cache = Array(repeating: [:], count: context.schema.entities.count)
    }

    public func write(_ batch: RecordBatch, pass: Int) throws {
        let objects = BatchObjects(batch, entityCount: store.schema.entities.count)
        try store.write { db in
            if pass == 0 {
                try writeObjects(objects, db)
            } else {
                try writeRelationships(objects, db)
            }
        }
    }

    public func finishPass(_ pass: Int) throws {
        guard pass == Self.passes - 1 else { return }
        cache = cache.map { _ in [:] }
        try store.sweep()
    }

    private func writeObjects(_ objects: BatchObjects, _ db: Database) throws {
        for (entity, list) in objects.byEntity.enumerated() {
            for object in list {
                let table = store.tables[entity]
                let occurrence = object.occurrence
                cache[entity][occurrence.key.string ?? ""] = try table.upsertAttributes(db, attributes(of: occurrence, object))
                // Rare: later occurrences that leave attributes out, each upserted over the one before.
                for partial in object.partials { _ = try table.upsertAttributes(db, attributes(of: partial, object)) }
            }
        }
    }

    /// What the first pass writes of `occurrence`: its attributes, no relationship yet.
    private func attributes(of occurrence: BatchOccurrence, _ object: BatchObjects.Object) -> ObjectToWrite {
        ObjectToWrite(occurrence, foreignKeys: occurrence.toOne.map { _ in nil }, stamp: store.stamp, listsChildren: object.listsChildren)
    }

    private func writeRelationships(_ objects: BatchObjects, _ db: Database) throws {
        for (entity, list) in objects.byEntity.enumerated() {
            for object in list {
                let occurrence = object.occurrence
                guard let pk = cache[entity][occurrence.key.string ?? ""] else { continue }
                try setForeignKeys(of: occurrence, pk: pk, db)
                // Rare: later occurrences that leave members out, each setting the relationships it gives.
                for partial in object.partials { try setForeignKeys(of: partial, pk: pk, db) }
                for (relationship, members) in object.members.enumerated() {
                    let target = store.setTargets[entity][relationship]
                    for member in members {
                        try store.addPair(
                            db, entity: entity, relationship: relationship, source: pk, target: lookUp(target, member, for: occurrence, db))
                    }
                }
            }
        }
    }

    /// UPDATE the row `pk`'s foreign keys to `occurrence`'s targets, those it gives.
    private func setForeignKeys(of occurrence: BatchOccurrence, pk: Int64, _ db: Database) throws {
        let foreignKeys = try store.foreignKeys(of: occurrence) { reference, target in
            try lookUp(target, reference.key.string ?? "", for: occurrence, db)
        }
        try store.tables[occurrence.entity.index].setForeignKeys(db, pk, ObjectToWrite(occurrence, foreignKeys: foreignKeys, stamp: store.stamp))
    }

    /// From the dictionary; only an object the payload never wrote (already stored) costs a fetch.
    private func lookUp(_ target: EntityID, _ key: String, for occurrence: BatchOccurrence, _ db: Database) throws -> Int64 {
        if let pk = cache[target.index][key] { return pk }
        guard let pk = try store.tables[target.index].findPK(db, key) else {
            throw store.schema.danglingReference(from: occurrence, to: target, key: key)
        }
        cache[target.index][key] = pk
        return pk
    }
}
