import ImportBenchPayload
import ImportBenchSchema
import ImportBenchStore

/// Two passes. First every object of every entity is written without its relationships, keeping
/// key -> pk for the whole import; then foreign keys and join rows are set from that cache, with
/// no fetch for any relationship the payload itself supplies.
package final class IDCacheStrategy: ImportStrategy {
    package static let name = "idcache"
    package static let summary = "two passes: write all objects keeping key -> pk, then set relationships from that cache"

    private let schema: Schema
    private let upsertAttributes: StatementsByAbsence
    private let updateAttributes: StatementsByAbsence
    private let updateForeignKeys: StatementsByAbsence
    private let findPK: [StoreStatement]
    private let insertJoin: [[StoreStatement]]
    private let selectAllPKs: [StoreStatement]
    private let sweep: RefreshSweep
    private let listing: ListingStamp
    private var cache: KnownPKs
    private let unique: UniqueObjects
    private let interner: KeyInterner

    package static let passes = 2

    package init(context: StrategyContext) throws {
        schema = context.schema
        let store = context.store
        let generation = context.generation
        let schema = context.schema
        let entityCount = schema.entities.count
        upsertAttributes = try StatementsByAbsence(store: store, entityCount: entityCount) { entity, absent in
            schema.entities[entity].upsertAttributesSQL(in: schema, generation: generation, absent: absent)
        }
        updateAttributes = try StatementsByAbsence(store: store, entityCount: entityCount) { entity, absent in
            schema.entities[entity].updateAttributesSQL(in: schema, generation: generation, absent: absent)
        }
        updateForeignKeys = try StatementsByAbsence(store: store, entityCount: entityCount) { entity, absent in
            schema.entities[entity].updateForeignKeysSQL(absent: absent)
        }
        findPK = try schema.entities.map { try store.prepare($0.selectPKByKeySQL) }
        insertJoin = try schema.entities.map { entity in
            try entity.manyToMany.map { try store.prepare(entity.insertJoinSQL($0, generation: generation)) }
        }
        selectAllPKs = try schema.entities.map { try store.prepare($0.selectAllPKsSQL) }
        sweep = try RefreshSweep(context: context)
        listing = ListingStamp(context: context)
        cache = KnownPKs(entityCount: schema.entities.count)
        unique = UniqueObjects(entityCount: schema.entities.count)
        interner = context.interner
    }

    package func write(_ batch: RecordBatch, pass: Int) throws {
        unique.collect(batch)
        if pass == 0 {
            try writeObjects()
        } else {
            try writeRelationships()
        }
    }

    package func finishPass(_ pass: Int) throws {
        guard pass == Self.passes - 1 else { return }
        cache.removeAll()
        try sweep.run()
    }

    /// The cache of the committed batches is gone with the killed process: every stored key is read
    /// back, one fetch per entity, a superset of what the payload wrote so far.
    package func resume(atPass pass: Int) throws {
        cache.removeAll()
        for (entity, statement) in selectAllPKs.enumerated() {
            defer { statement.reset() }
            while try statement.step() {
                cache[entity, interner.id(entity: entity, key: statement.value(at: 0))] = statement.int64(at: 1)
            }
        }
    }

    private func writeObjects() throws {
        for entity in schema.entities.indices {
            try unique.forEachObject(of: entity) { _, object, occurrence in
                let listed = listing.value(entityIndex: entity, listsChildren: object.listsChildren)
                if let pk = cache[entity, occurrence.keyID] {
                    guard let statement = try updateAttributes.statement(for: occurrence) else { return }
                    statement.bindUpdate(occurrence, foreignKeys: [], listed: listed, pk: pk)
                    try statement.execute()
                } else {
                    guard let statement = try upsertAttributes.statement(for: occurrence) else { return }
                    statement.bindListed(listed, at: statement.bindObject(occurrence, foreignKeys: []))
                    cache[entity, occurrence.keyID] = try statement.scalarInt64()
                }
            }
        }
    }

    private func writeRelationships() throws {
        for entity in schema.entities.indices {
            try unique.forEachObject(of: entity) { _, object, occurrence in
                guard let pk = cache[entity, occurrence.keyID] else { return }
                if let statement = try updateForeignKeys.statement(for: occurrence) {
                    let targets = schema.toOneTargets[entity]
                    var index: Int32 = 1
                    for (relationship, reference) in occurrence.toOne.enumerated() {
                        if let reference {
                            let targetPK = try lookUp(reference, entity: targets[relationship]) {
                                StrategyError.dangling(occurrence, toOne: relationship, in: schema)
                            }
                            statement.bind(targetPK, at: index)
                        } else {
                            statement.bindNull(at: index)
                        }
                        index += 1
                    }
                    statement.bind(pk, at: index)
                    try statement.execute()
                }
                guard !occurrence.manyToMany.isEmpty else { return }
                for (relationship, references) in unique.manyToMany(object).enumerated() {
                    let target = schema.manyToManyTargets[entity][relationship]
                    for reference in references {
                        let targetPK = try lookUp(reference, entity: target) {
                            StrategyError.dangling(occurrence, manyToMany: relationship, targetKey: reference.key, in: schema)
                        }
                        let statement = insertJoin[entity][relationship]
                        statement.bind(pk, at: 1)
                        statement.bind(targetPK, at: 2)
                        try statement.execute()
                    }
                }
            }
        }
    }

    /// From the cache; only an object the payload never wrote (already stored) costs a fetch.
    private func lookUp(_ reference: BatchReference, entity: Int, orThrow error: () -> StrategyError) throws -> Int64 {
        if let pk = cache[entity, reference.keyID] { return pk }
        let statement = findPK[entity]
        statement.bind(reference.key, at: 1)
        guard let pk = try statement.scalarInt64() else { throw error() }
        cache[entity, reference.keyID] = pk
        return pk
    }
}
