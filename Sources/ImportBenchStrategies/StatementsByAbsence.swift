import ImportBenchPayload
import ImportBenchSchema
import ImportBenchStore

/// One kind of write per entity: the statement for whole objects, prepared up front, and one per
/// set of columns an occurrence leaves out, prepared the first time an occurrence leaves those
/// out. A partial object (a user named only by id and name) must not blank what the store holds,
/// so its UPDATE sets only the columns it has; a payload has few such shapes.
final class StatementsByAbsence {
    private let store: StoreConnection
    private let sql: (_ entity: Int, _ absent: ColumnSet) -> String?
    private let whole: [StoreStatement?]
    private var partial: [[ColumnSet: StoreStatement?]]
    /// Per entity, the last partial shape asked for (`BatchOccurrence.absentColumnBits`) and its
    /// statement: a payload's partial objects mostly share one shape (chat's messages without a
    /// quote), which then costs a comparison, not a hash.
    private var lastBits: [UInt64]
    private var lastStatement: [StoreStatement?]

    /// `sql` gives the statement for an entity and the columns left out (attributes, then to-one
    /// relationships), or nil where nothing is left to write.
    init(store: StoreConnection, entityCount: Int, sql: @escaping (_ entity: Int, _ absent: ColumnSet) -> String?) throws {
        self.store = store
        self.sql = sql
        whole = try (0..<entityCount).map { entity in try sql(entity, ColumnSet()).map(store.prepare) }
        partial = Array(repeating: [:], count: entityCount)
        lastBits = Array(repeating: 0, count: entityCount)
        lastStatement = whole
    }

    /// The statement that writes `occurrence` as the payload gives it; nil when it leaves out every
    /// column the statement would set.
    @inline(__always)
    func statement(for occurrence: BatchOccurrence) throws -> StoreStatement? {
        guard occurrence.isPartial else { return whole[occurrence.entityIndex] }
        let entity = occurrence.entityIndex
        guard let bits = occurrence.absentColumnBits else {
            return try partialStatement(entity: entity, absent: occurrence.absentColumns)
        }
        if bits == lastBits[entity] { return lastStatement[entity] }
        let statement = try partialStatement(entity: entity, absent: ColumnSet(bits: bits))
        lastBits[entity] = bits
        lastStatement[entity] = statement
        return statement
    }

    /// The statement for whole objects of `entity`.
    func wholeStatement(entity: Int) -> StoreStatement? {
        whole[entity]
    }

    @inline(never)
    private func partialStatement(entity: Int, absent: ColumnSet) throws -> StoreStatement? {
        if let prepared = partial[entity][absent] { return prepared }
        let prepared = try sql(entity, absent).map(store.prepare)
        partial[entity][absent] = .some(prepared)
        return prepared
    }
}
