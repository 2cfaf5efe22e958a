import ImportBenchPayload
import ImportBenchStore

/// Find-or-insert, one object at a time: SELECT by key for every occurrence, then INSERT or UPDATE.
/// A reference given by key only costs its own SELECT; an embedded object's reference is the result
/// of that object's own find-or-insert, as in an app's recursive import function.
package final class NaiveStrategy: ImportStrategy {
    package static let name = "naive"
    package static let summary = "find-or-insert: SELECT by key for every occurrence, then INSERT or UPDATE"
    package static let role = StrategyRole.startingPoint

    private let writer: FindOrInsertWriter
    /// pks of this unit's occurrences by ordinal: the local variables of a recursive import.
    private var pkByOrdinal: [Int: Int64] = [:]
    private var currentUnit = -1

    package init(context: StrategyContext) throws {
        writer = try FindOrInsertWriter(context: context)
    }

    package func write(_ batch: RecordBatch, pass: Int) throws {
        for occurrence in batch.occurrences {
            if occurrence.unit != currentUnit {
                pkByOrdinal.removeAll(keepingCapacity: true)
                currentUnit = occurrence.unit
            }
            let resolve = { (reference: BatchReference, target: Int, relationship: String) throws -> Int64 in
                if let ordinal = reference.embeddedOrdinal, let pk = self.pkByOrdinal[ordinal] { return pk }
                return try self.writer.fetchPK(of: reference, target: target, from: occurrence, relationship: relationship)
            }
            let foreignKeys = try writer.foreignKeys(of: occurrence, resolve)
            let pk = try writer.save(occurrence, foreignKeys: foreignKeys, existing: writer.find(occurrence))
            pkByOrdinal[occurrence.ordinal] = pk
            try writer.saveJoins(of: occurrence, pk: pk, resolve)
        }
    }

    package func finishPass(_ pass: Int) throws {
        try writer.sweepUnlisted()
    }
}
