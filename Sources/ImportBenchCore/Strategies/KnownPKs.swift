import ImportBenchStore

/// pks by natural key, per entity: what the set-based strategies know without asking the store.
struct KnownPKs {
    private var pks: [[DatabaseValue: Int64]]

    init(entityCount: Int) {
        pks = Array(repeating: [:], count: entityCount)
    }

    subscript(entity: Int, key: DatabaseValue) -> Int64? {
        get { pks[entity][key] }
        set { pks[entity][key] = newValue }
    }

    mutating func removeAll() {
        for entity in pks.indices { pks[entity].removeAll(keepingCapacity: true) }
    }

    /// The pks of an object's to-one targets; every non-nil reference must be known.
    func foreignKeys(of occurrence: RecordOccurrence, in schema: Schema) throws -> [Int64?] {
        let targets = schema.toOneTargets[occurrence.entity]
        return try occurrence.toOne.enumerated().map { index, reference in
            guard let reference else { return nil }
            guard let pk = pks[targets[index]][reference.key] else {
                throw ImportError.dangling(occurrence, toOne: index, in: schema)
            }
            return pk
        }
    }
}

extension ImportError {
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
