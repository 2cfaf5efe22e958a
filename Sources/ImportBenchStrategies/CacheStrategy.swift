import ImportBenchPayload
import ImportBenchStore

/// Find-or-insert with a per-import map (entity, key) -> pk, filled on every fetch or insert, so each
/// object is fetched once. Updates still run for every occurrence, as in Stream's original design.
package final class CacheStrategy: ImportStrategy {
    package static let name = "cache"
    package static let summary = "find-or-insert through a per-import (entity, key) -> pk map: one fetch per unique object"

    private let writer: FindOrInsertWriter
    private var cache: KnownPKs

    package init(context: StrategyContext) throws {
        writer = try FindOrInsertWriter(context: context)
        cache = KnownPKs(entityCount: context.schema.entities.count)
    }

    package func write(_ batch: RecordBatch, pass: Int) throws {
        for occurrence in batch.occurrences {
            let resolve = { (reference: BatchReference, target: Int, relationship: String) throws -> Int64 in
                if let pk = self.cache[target, reference.keyID] { return pk }
                let pk = try self.writer.fetchPK(of: reference, target: target, from: occurrence, relationship: relationship)
                self.cache[target, reference.keyID] = pk
                return pk
            }
            let foreignKeys = try writer.foreignKeys(of: occurrence, resolve)
            let known = try cache[occurrence.entityIndex, occurrence.keyID] ?? writer.find(occurrence)
            let pk = try writer.save(occurrence, foreignKeys: foreignKeys, existing: known)
            cache[occurrence.entityIndex, occurrence.keyID] = pk
            try writer.saveJoins(of: occurrence, pk: pk, resolve)
        }
    }

    /// The cache lives for one import only.
    package func finishPass(_ pass: Int) throws {
        cache.removeAll()
        try writer.sweepUnlisted()
    }
}
