import ImportBenchPayload
import ImportBenchSchema
import ImportBenchStore

/// pks by interned key ID, per entity: what the set-based strategies know without asking the store.
/// A class, as its table is: one instance per strategy.
final class KnownPKs {
    private let pks: ValuesByKeyID<Int64>

    init(entityCount: Int) {
        pks = ValuesByKeyID(entityCount: entityCount)
    }

    subscript(entity: Int, id: Int32) -> Int64? {
        @inline(__always) get { pks[entity, id] }
        set { pks[entity, id] = newValue }
    }

    func removeAll() {
        pks.removeAll()
    }

    /// Binds the pks of an object's to-one targets (NULL for a relationship set to none) from
    /// `start`; every other reference must be known. Returns the next free index. No array is built
    /// per object, as `foreignKeys(of:in:)` does: bulk binds every new row through here.
    @inline(__always)
    func bindForeignKeys(of occurrence: BatchOccurrence, in schema: Schema, to statement: StoreStatement, from start: Int32) throws -> Int32 {
        let targets = schema.toOneTargets[occurrence.entityIndex]
        var index = start
        for (relationship, reference) in occurrence.toOne.enumerated() {
            if let reference {
                statement.bind(try pk(of: reference, target: targets[relationship], toOne: relationship, of: occurrence, in: schema), at: index)
            } else {
                statement.bindNull(at: index)
            }
            index += 1
        }
        return index
    }

    /// The pks of an object's to-one targets; every non-nil reference must be known.
    func foreignKeys(of occurrence: BatchOccurrence, in schema: Schema) throws -> [Int64?] {
        let targets = schema.toOneTargets[occurrence.entityIndex]
        return try occurrence.toOne.enumerated().map { index, reference in
            try reference.map { try pk(of: $0, target: targets[index], toOne: index, of: occurrence, in: schema) }
        }
    }

    /// The known pk of to-one relationship `index`'s target, or the dangling-reference error.
    @inline(__always)
    private func pk(of reference: BatchReference, target: Int, toOne index: Int, of occurrence: BatchOccurrence, in schema: Schema) throws -> Int64 {
        guard let pk = self[target, reference.keyID] else { throw StrategyError.dangling(occurrence, toOne: index, in: schema) }
        return pk
    }
}

extension StrategyError {
    static func dangling(_ occurrence: BatchOccurrence, toOne index: Int, in schema: Schema) -> StrategyError {
        dangling(occurrence.materialized, toOne: index, in: schema)
    }

    static func dangling(
        _ occurrence: BatchOccurrence, manyToMany index: Int, targetKey: RecordValue, in schema: Schema
    ) -> StrategyError {
        dangling(occurrence.materialized, manyToMany: index, targetKey: targetKey.storeValue, in: schema)
    }

    static func dangling(_ occurrence: RecordOccurrence, toOne index: Int, in schema: Schema) -> StrategyError {
        let entity = schema.entities[occurrence.entity]
        return .danglingReference(
            source: entity.name, sourceKey: occurrence.key, relationship: entity.toOne[index].name,
            target: entity.toOne[index].target, targetKey: occurrence.toOne[index]?.key ?? .null)
    }

    static func dangling(_ occurrence: RecordOccurrence, manyToMany index: Int, targetKey: StoreValue, in schema: Schema) -> StrategyError {
        let entity = schema.entities[occurrence.entity]
        return .danglingReference(
            source: entity.name, sourceKey: occurrence.key, relationship: entity.manyToMany[index].name,
            target: entity.manyToMany[index].target, targetKey: targetKey)
    }
}
