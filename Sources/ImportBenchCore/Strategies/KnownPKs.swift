import ImportBenchStore

/// pks by interned key ID, per entity: what the set-based strategies know without asking the store.
struct KnownPKs {
    private var pks: ValuesByKeyID<Int64>

    init(entityCount: Int) {
        pks = ValuesByKeyID(entityCount: entityCount)
    }

    subscript(entity: Int, id: Int32) -> Int64? {
        get { pks[entity, id] }
        set { pks[entity, id] = newValue }
    }

    mutating func removeAll() {
        pks.removeAll()
    }

    /// The pks of an object's to-one targets; every non-nil reference must be known.
    func foreignKeys(of occurrence: BatchOccurrence, in schema: Schema) throws -> [Int64?] {
        let targets = schema.toOneTargets[occurrence.entity]
        return try occurrence.toOne.enumerated().map { index, reference in
            guard let reference else { return nil }
            guard let pk = self[targets[index], reference.keyID] else {
                throw ImportError.dangling(occurrence, toOne: index, in: schema)
            }
            return pk
        }
    }
}

extension ImportError {
    static func dangling(_ occurrence: BatchOccurrence, toOne index: Int, in schema: Schema) -> ImportError {
        dangling(occurrence.materialized, toOne: index, in: schema)
    }

    static func dangling(
        _ occurrence: BatchOccurrence, manyToMany index: Int, targetKey: RecordValue, in schema: Schema
    ) -> ImportError {
        dangling(occurrence.materialized, manyToMany: index, targetKey: targetKey.databaseValue, in: schema)
    }

    static func dangling(_ occurrence: RecordOccurrence, toOne index: Int, in schema: Schema) -> ImportError {
        let entity = schema.entities[occurrence.entity]
        return .danglingReference(
            source: entity.name, sourceKey: occurrence.key, relationship: entity.toOne[index].name,
            target: entity.toOne[index].target, targetKey: occurrence.toOne[index]?.key ?? .null)
    }

    static func dangling(_ occurrence: RecordOccurrence, manyToMany index: Int, targetKey: DatabaseValue, in schema: Schema) -> ImportError {
        let entity = schema.entities[occurrence.entity]
        return .danglingReference(
            source: entity.name, sourceKey: occurrence.key, relationship: entity.manyToMany[index].name,
            target: entity.manyToMany[index].target, targetKey: targetKey)
    }
}
