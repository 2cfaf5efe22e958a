import ImportBenchStore

/// Writes each unique object of a batch with one statement that inserts or overwrites it and returns
/// its pk and foreign keys (upsert and the replace pitfall differ only in that statement's verb).
struct OneStatementWriter {
    let schema: Schema
    /// Per entity: key, attributes, then per foreign key (pk or NULL, target key); returns pk, foreign keys.
    let objectStatements: [Statement]
    /// Per entity and many-to-many relationship: source pk, then (target pk or NULL, target key).
    let joinStatements: [[Statement]]

    /// Prepares `objectSQL` per entity and `joinSQL` per many-to-many relationship, given the import's generation.
    init(
        context: StrategyContext, objectSQL: (Entity, Schema, Int64) -> String,
        joinSQL: (Entity, ManyToManyRelationship, Schema, Int64) -> String
    ) throws {
        let schema = context.schema
        let store = context.store
        let generation = context.generation
        self.schema = schema
        objectStatements = try schema.entities.map { try store.prepare(objectSQL($0, schema, generation)) }
        joinStatements = try schema.entities.map { entity in
            try entity.manyToMany.map { try store.prepare(joinSQL(entity, $0, schema, generation)) }
        }
    }

    func write(_ batch: RecordBatch) throws {
        // pks this batch has written: references to them need no lookup inside the statement.
        var known = KnownPKs(entityCount: schema.entities.count)
        let unique = UniqueObjects(entityCount: schema.entities.count, occurrences: batch.occurrences)
        for entity in schema.entities.indices {
            let statement = objectStatements[entity]
            let targets = schema.toOneTargets[entity]
            for object in unique.objects[entity] {
                let occurrence = object.occurrence
                var index = statement.bindObject(occurrence, foreignKeys: [])
                for (relationship, reference) in occurrence.toOne.enumerated() {
                    if let reference, let pk = known[targets[relationship], reference.key] {
                        statement.bind(pk, at: index)
                    } else {
                        statement.bindNull(at: index)
                    }
                    statement.bind(reference?.key ?? .null, at: index + 1)
                    index += 2
                }
                let pk = try run(statement, for: occurrence)
                known[entity, occurrence.key] = pk
                for (relationship, keys) in object.manyToManyKeys.enumerated() {
                    let target = schema.manyToManyTargets[entity][relationship]
                    let join = joinStatements[entity][relationship]
                    for key in keys {
                        join.bind(pk, at: 1)
                        if let targetPK = known[target, key] { join.bind(targetPK, at: 2) } else { join.bindNull(at: 2) }
                        join.bind(key, at: 3)
                        do {
                            try join.execute()
                        } catch let error as StoreError where error.isConstraintViolation {
                            throw ImportError.dangling(occurrence, manyToMany: relationship, targetKey: key, in: schema)
                        }
                    }
                }
            }
        }
    }

    /// Executes the statement; a NULL foreign key returned for a named target is a dangling reference.
    private func run(_ statement: Statement, for occurrence: RecordOccurrence) throws -> Int64 {
        defer { statement.reset() }
        guard try statement.step() else {
            throw StoreError(extendedCode: 1, message: "\(statement.kind) returned no row", sql: statement.sql)
        }
        for (index, reference) in occurrence.toOne.enumerated() where reference != nil {
            if case .null = statement.value(at: Int32(index + 1)) {
                throw ImportError.dangling(occurrence, toOne: index, in: schema)
            }
        }
        let pk = statement.int64(at: 0)
        while try statement.step() {}
        return pk
    }
}
