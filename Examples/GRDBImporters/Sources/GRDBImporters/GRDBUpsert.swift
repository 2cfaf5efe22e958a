import GRDB
import ImportBench

/// bench's upsert, as a GRDB user writes it: each object of a batch once, entity by entity, with
/// `upsert(db)` (INSERT ... ON CONFLICT DO UPDATE, the pk returned). What GRDB needs for the foreign
/// keys: a record holds its targets' pks, so a reference to an object this batch has not written
/// costs a fetch of its pk, where bench's upsert resolves the key inside the statement. An
/// occurrence that leaves members out keeps their stored values (`Column.noOverwrite`), and is
/// upserted after the object's earlier occurrence in the batch (`BatchObjects`).
public final class GRDBUpsert: ImportStrategy {
    public static let name = "grdb-upsert"
    public static let summary = "GRDB upsert(db) per object of a batch; targets' pks from the batch or fetched by key"

    public var transactionScope: TransactionScope { .strategy }
    private let store: GRDBStore

    public init(context: StrategyContext) throws {
        store = try GRDBStore(context: context)
    }

    public func write(_ batch: RecordBatch, pass: Int) throws {
        let store = store
        let entityCount = store.schema.entities.count
        try store.write { db in
            var known: [[String: Int64]] = Array(repeating: [:], count: entityCount)
            func pk(_ target: EntityID, _ key: String, for occurrence: BatchOccurrence) throws -> Int64 {
                if let pk = known[target.index][key] { return pk }
                guard let pk = try store.tables[target.index].findPK(db, key) else {
                    throw store.schema.danglingReference(from: occurrence, to: target, key: key)
                }
                known[target.index][key] = pk
                return pk
            }
            /// Upserts `occurrence`, keeping the stored value of every column it leaves out; its pk.
            func upsert(_ occurrence: BatchOccurrence, listsChildren: Bool) throws -> Int64 {
                let foreignKeys = try store.foreignKeys(of: occurrence) { reference, target in
                    try pk(target, reference.key.string ?? "", for: occurrence)
                }
                let toWrite = ObjectToWrite(occurrence, foreignKeys: foreignKeys, stamp: store.stamp, listsChildren: listsChildren)
                return try store.tables[occurrence.entity.index].upsert(db, toWrite)
            }
            for (entity, objects) in BatchObjects(batch, entityCount: entityCount).byEntity.enumerated() {
                for object in objects {
                    let occurrence = object.occurrence
                    let written = try upsert(occurrence, listsChildren: object.listsChildren)
                    // Rare: later occurrences that leave members out, each upserted over the one before.
                    for partial in object.partials { _ = try upsert(partial, listsChildren: object.listsChildren) }
                    known[entity][occurrence.key.string ?? ""] = written
                    for (relationship, members) in object.members.enumerated() {
                        let target = store.setTargets[entity][relationship]
                        for member in members {
                            try store.addPair(
                                db, entity: entity, relationship: relationship, source: written, target: pk(target, member, for: occurrence))
                        }
                    }
                }
            }
        }
    }

    public func finishPass(_ pass: Int) throws {
        try store.sweep()
    }
}
