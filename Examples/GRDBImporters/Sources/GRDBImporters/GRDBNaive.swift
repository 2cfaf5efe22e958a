import GRDB
import ImportBench

/// bench's naive, as a GRDB user writes it: one occurrence at a time, `fetchOne(db, key:)` decodes
/// the stored record (every column), then `update` or `insert`; a reference given by key costs a
/// fetch of the target's pk, an embedded one is the pk its own find-or-insert gave. An occurrence
/// that leaves members out updates only the columns it gives (`update(db, columns:)`).
public final class GRDBNaive: ImportStrategy {
    public static let name = "grdb-naive"
    public static let summary = "find-or-insert with GRDB Codable records: fetchOne(key:) per occurrence, then update or insert"

    public var transactionScope: TransactionScope { .strategy }
    private let store: GRDBStore
    /// pks of this unit's occurrences by ordinal: the local variables of a recursive import, kept
    /// across batches, as a unit (a channel and its messages) may span several.
    private var pkByOrdinal: [Int: Int64] = [:]
    private var unit = -1

    public init(context: StrategyContext) throws {
        store = try GRDBStore(context: context)
    }

    public func write(_ batch: RecordBatch, pass: Int) throws {
        let store = store
        try store.write { db in
            for occurrence in batch.occurrences {
                if occurrence.unit != unit {
                    pkByOrdinal.removeAll(keepingCapacity: true)
                    unit = occurrence.unit
                }
                let resolve = { (reference: BatchReference, target: EntityID) throws -> Int64 in
                    if let ordinal = reference.embeddedOrdinal, let pk = self.pkByOrdinal[ordinal] { return pk }
                    let key = reference.key.string ?? ""
                    guard let pk = try store.tables[target.index].findPK(db, key) else {
                        throw store.schema.danglingReference(from: occurrence, to: target, key: key)
                    }
                    return pk
                }
                let table = store.tables[occurrence.entity.index]
                let object = ObjectToWrite(occurrence, foreignKeys: try store.foreignKeys(of: occurrence, resolve), stamp: store.stamp)
                let pk = try table.save(db, object, try table.find(db, occurrence.key.string ?? "")).pk
                pkByOrdinal[occurrence.ordinal] = pk
                for (relationship, members) in occurrence.manyToMany.enumerated() {
                    let target = store.setTargets[occurrence.entity.index][relationship]
                    for member in members {
                        try store.addPair(
                            db, entity: occurrence.entity.index, relationship: relationship, source: pk, target: resolve(member, target))
                    }
                }
            }
        }
    }

    public func finishPass(_ pass: Int) throws {
        try store.sweep()
    }
}
