import ImportBenchPayload
import ImportBenchSchema
import ImportBenchStore

/// The statements and steps shared by the object-at-a-time strategies (naive, cache): they differ
/// only in how they decide whether to fetch.
struct FindOrInsertWriter {
    let schema: Schema
    let store: StoreConnection
    private let findObject: [StoreStatement]
    private let findPK: [StoreStatement]
    private let insert: [StoreStatement]
    private let update: StatementsByAbsence
    private let insertJoin: [[StoreStatement]]
    private let sweep: RefreshSweep
    private let listing: ListingStamp

    init(context: StrategyContext) throws {
        schema = context.schema
        store = context.store
        let store = context.store
        findObject = try schema.entities.map { try store.prepare($0.selectObjectByKeySQL) }
        findPK = try schema.entities.map { try store.prepare($0.selectPKByKeySQL) }
        let generation = context.generation
        let schema = context.schema
        insert = try schema.entities.map { try store.prepare($0.insertObjectSQL(in: schema, generation: generation)) }
        update = try StatementsByAbsence(store: store, entityCount: schema.entities.count) { entity, absent in
            schema.entities[entity].updateObjectSQL(in: schema, generation: generation, absent: absent)
        }
        insertJoin = try schema.entities.map { entity in
            try entity.manyToMany.map { try store.prepare(entity.insertJoinSQL($0, generation: generation)) }
        }
        sweep = try RefreshSweep(context: context)
        listing = ListingStamp(context: context)
    }

    /// Deletes the children and set members the payload no longer lists; once, after the import.
    func sweepUnlisted() throws {
        try sweep.run()
    }

    /// SELECTs the object with every column, as an app materialising it would; returns its pk.
    func find(_ occurrence: BatchOccurrence) throws -> Int64? {
        let statement = findObject[occurrence.entityIndex]
        statement.bind(occurrence.key, at: 1)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        let materialised = statement.row()
        if case .integer(let pk) = materialised[0] { return pk }
        return nil
    }

    /// SELECTs the pk of a referenced object; a missing one is a dangling reference.
    func fetchPK(of reference: BatchReference, target: Int, from occurrence: BatchOccurrence, relationship: String) throws -> Int64 {
        let statement = findPK[target]
        statement.bind(reference.key, at: 1)
        if let pk = try statement.scalarInt64() { return pk }
        throw StrategyError.danglingReference(
            source: schema.entities[occurrence.entityIndex].name, sourceKey: occurrence.key.storeValue,
            relationship: relationship, target: schema.entities[target].name, targetKey: reference.key.storeValue)
    }

    /// Resolves every to-one reference of `occurrence` with `resolve(reference, target, relationship)`.
    func foreignKeys(
        of occurrence: BatchOccurrence,
        _ resolve: (BatchReference, Int, String) throws -> Int64
    ) throws -> [Int64?] {
        let entity = schema.entities[occurrence.entityIndex]
        let targets = schema.toOneTargets[occurrence.entityIndex]
        var foreignKeys: [Int64?] = []
        foreignKeys.reserveCapacity(occurrence.toOne.count)
        for (index, reference) in occurrence.toOne.enumerated() {
            foreignKeys.append(try reference.map { try resolve($0, targets[index], entity.toOne[index].name) })
        }
        return foreignKeys
    }

    /// UPDATEs the existing row (the columns the occurrence gives), or INSERTs a new one; returns the pk.
    func save(_ occurrence: BatchOccurrence, foreignKeys: [Int64?], existing: Int64?) throws -> Int64 {
        let listed = listing.value(entityIndex: occurrence.entityIndex, listsChildren: occurrence.listsChildren)
        if let existing {
            if let statement = try update.statement(for: occurrence) {
                statement.bindUpdate(occurrence, foreignKeys: foreignKeys, listed: listed, pk: existing)
                try statement.execute()
            }
            return existing
        }
        insert[occurrence.entityIndex].bindListed(listed, at: insert[occurrence.entityIndex].bindObject(occurrence, foreignKeys: foreignKeys))
        try insert[occurrence.entityIndex].execute()
        return store.lastInsertRowid
    }

    /// Adds every many-to-many pair of `occurrence`, resolving targets with `resolve`.
    func saveJoins(
        of occurrence: BatchOccurrence, pk: Int64,
        _ resolve: (BatchReference, Int, String) throws -> Int64
    ) throws {
        let entity = schema.entities[occurrence.entityIndex]
        for (relationship, references) in occurrence.manyToMany.enumerated() {
            let target = schema.manyToManyTargets[occurrence.entityIndex][relationship]
            let statement = insertJoin[occurrence.entityIndex][relationship]
            for reference in references {
                let targetPK = try resolve(reference, target, entity.manyToMany[relationship].name)
                statement.bind(pk, at: 1)
                statement.bind(targetPK, at: 2)
                try statement.execute()
            }
        }
    }
}
