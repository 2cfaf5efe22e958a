import GRDB
import ImportBench

/// bench's prewarm, as a GRDB user writes it: per batch, the stored records of every key the batch
/// names, fetched per entity with `filter(keys.contains(column))` in chunks (SQLite's variable
/// limit caps a chunk, GRDB issue #924), then each object of the batch inserted or updated once
/// (and once more for each later occurrence that leaves members out, `BatchObjects`).
public final class GRDBPrewarm: ImportStrategy {
    public static let name = "grdb-prewarm"
    public static let summary = "GRDB records, per batch: fetchAll of the named keys in chunks, then insert or update each object once"

    public var transactionScope: TransactionScope { .strategy }
    private let store: GRDBStore
    private let chunkSize: Int

    public init(context: StrategyContext) throws {
        store = try GRDBStore(context: context)
        chunkSize = min(context.settings.keysPerFetch, context.store.variableLimit)
    }

    public func write(_ batch: RecordBatch, pass: Int) throws {
        let store = store
        let entityCount = store.schema.entities.count
        let named = namedKeys(batch)
        try store.write { db in
            var known: [[String: StoredRow]] = Array(repeating: [:], count: entityCount)
            for (entity, keys) in named.enumerated() {
                for start in stride(from: 0, to: keys.count, by: chunkSize) {
                    let chunk = Array(keys[start..<min(start + chunkSize, keys.count)])
                    known[entity].merge(try store.tables[entity].findAll(db, chunk)) { _, fetched in fetched }
                }
            }
            /// Inserts `occurrence`, or updates `stored` with what it gives.
            func save(_ occurrence: BatchOccurrence, over stored: StoredRow?, listsChildren: Bool) throws -> StoredRow {
                let foreignKeys = try store.foreignKeys(of: occurrence) { reference, target in
                    let key = reference.key.string ?? ""
                    guard let row = known[target.index][key] else { throw store.schema.danglingReference(from: occurrence, to: target, key: key) }
                    return row.pk
                }
                let toWrite = ObjectToWrite(occurrence, foreignKeys: foreignKeys, stamp: store.stamp, listsChildren: listsChildren)
                return try store.tables[occurrence.entity.index].save(db, toWrite, stored)
            }
            for (entity, objects) in BatchObjects(batch, entityCount: entityCount).byEntity.enumerated() {
                for object in objects {
                    let occurrence = object.occurrence
                    let key = occurrence.key.string ?? ""
                    var written = try save(occurrence, over: known[entity][key], listsChildren: object.listsChildren)
                    // Rare: later occurrences that leave members out, each an update of what it gives.
                    for partial in object.partials {
                        written = try save(partial, over: written, listsChildren: object.listsChildren)
                    }
                    known[entity][key] = written
                    for (relationship, members) in object.members.enumerated() {
                        let target = store.setTargets[entity][relationship]
                        for member in members {
                            guard let row = known[target.index][member] else {
                                throw store.schema.danglingReference(from: occurrence, to: target, key: member)
                            }
                            try store.addPair(db, entity: entity, relationship: relationship, source: written.pk, target: row.pk)
                        }
                    }
                }
            }
        }
    }

    public func finishPass(_ pass: Int) throws {
        try store.sweep()
    }

    /// The distinct keys per entity the batch names, as occurrences or as references, in order of first naming.
    private func namedKeys(_ batch: RecordBatch) -> [[String]] {
        let schema = store.schema
        var named: [[String]] = Array(repeating: [], count: schema.entities.count)
        var seen: [Set<String>] = Array(repeating: [], count: schema.entities.count)
        func note(_ entity: EntityID, _ key: RecordValue) {
            let text = key.string ?? ""
            if seen[entity.index].insert(text).inserted { named[entity.index].append(text) }
        }
        for occurrence in batch.occurrences {
            note(occurrence.entity, occurrence.key)
            for (index, reference) in occurrence.toOne.enumerated() {
                if let reference { note(store.referenceTargets[occurrence.entity.index][index], reference.key) }
            }
            for (index, members) in occurrence.manyToMany.enumerated() {
                for member in members { note(store.setTargets[occurrence.entity.index][index], member.key) }
            }
        }
        return named
    }
}
