import ImportBenchStore

/// pks by interned key ID, per entity: what the set-based strategies know without asking the store.
/// Arrays indexed by ID, so a lookup hashes nothing; `removeAll` clears only what was set, so one
/// instance serves batch after batch.
struct KnownPKs {
    private static let unknown = Int64.min
    private var pks: [[Int64]]
    /// IDs set since the last `removeAll`, per entity.
    private var setIDs: [[Int32]]

    init(entityCount: Int) {
        pks = Array(repeating: [], count: entityCount)
        setIDs = Array(repeating: [], count: entityCount)
    }

    subscript(entity: Int, id: Int32) -> Int64? {
        get {
            let index = Int(id)
            guard index >= 0, index < pks[entity].count else { return nil }
            let pk = pks[entity][index]
            return pk == Self.unknown ? nil : pk
        }
        set {
            let index = Int(id)
            precondition(index >= 0, "a key without an ID: records must come through a RecordBatcher")
            if index >= pks[entity].count {
                pks[entity].append(contentsOf: repeatElement(Self.unknown, count: index + 1 - pks[entity].count))
            }
            if pks[entity][index] == Self.unknown { setIDs[entity].append(id) }
            pks[entity][index] = newValue ?? Self.unknown
        }
    }

    mutating func removeAll() {
        for entity in pks.indices {
            for id in setIDs[entity] { pks[entity][Int(id)] = Self.unknown }
            setIDs[entity].removeAll(keepingCapacity: true)
        }
    }

    /// The pks of an object's to-one targets; every non-nil reference must be known.
    func foreignKeys(of occurrence: RecordOccurrence, in schema: Schema) throws -> [Int64?] {
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
