import GRDB
import ImportBench

/// bench's cache, as a GRDB user writes it: find-or-insert through a dictionary of the rows
/// already seen, (entity, key) -> pk, so each object is fetched once; updates still run for every
/// occurrence. Where a record layer decodes a whole record per fetch, this is the cut that pays.
public final class GRDBCache: ImportStrategy {
    public static let name = "grdb-cache"
    public static let summary = "GRDB find-or-insert through a per-import (entity, key) -> pk dictionary: one fetch per unique object"

    public var transactionScope: TransactionScope { .strategy }
    private let store: GRDBStore
    private var known: [[String: StoredRow]]

    public init(context: StrategyContext) throws {
        store = try GRDBStore(context: context)
        known = Array(repeating: [:], count: context.schema.entities.count)
    }

    public func write(_ batch: RecordBatch, pass: Int) throws {
        let store = store
        try store.write { db in
            for occurrence in batch.occurrences {
                let resolve = { (reference: BatchReference, target: EntityID) throws -> Int64 in
                    let key = reference.key.string ?? ""
                    if let row = self.known[target.index][key] { return row.pk }
                    guard let pk = try store.tables[target.index].findPK(db, key) else {
                        throw store.schema.danglingReference(from: occurrence, to: target, key: key)
                    }
                    // Its listing stamp is unknown here; an update keeps the stamp this import gives it.
                    self.known[target.index][key] = StoredRow(pk: pk, listed: nil)
                    return pk
                }
                let entity = occurrence.entity.index
                let key = occurrence.key.string ?? ""
                let object = ObjectToWrite(occurrence, foreignKeys: try store.foreignKeys(of: occurrence, resolve), stamp: store.stamp)
                let stored = try known[entity][key] ?? store.tables[entity].find(db, key)
                let written = try store.tables[entity].save(db, object, stored)
                known[entity][key] = written
                for (relationship, members) in occurrence.manyToMany.enumerated() {
                    let target = store.setTargets[entity][relationship]
                    for member in members {
                        try store.addPair(db, entity: entity, relationship: relationship, source: written.pk, target: resolve(member, target))
                    }
                }
            }
        }
    }

    /// The dictionary lives for one import only.
    public func finishPass(_ pass: Int) throws {
        known = known.map { _ in [:] }
        try store.sweep()
    }
}
