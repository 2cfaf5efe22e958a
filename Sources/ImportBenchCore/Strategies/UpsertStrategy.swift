import ImportBenchStore

/// Per batch, per entity in dependency order: `INSERT ... ON CONFLICT(key) DO UPDATE ... RETURNING pk`
/// for each unique object, no reads. Never `INSERT OR REPLACE`: that deletes the row and its children.
public final class UpsertStrategy: ImportStrategy {
    public static let name = "upsert"
    public static let summary = "INSERT ... ON CONFLICT(key) DO UPDATE ... RETURNING pk per unique object; no fetches"

    private let schema: Schema
    private let upsert: [Statement]
    private let upsertJoin: [[Statement]]

    public init(context: StrategyContext) throws {
        schema = context.schema
        let schema = context.schema
        let store = context.store
        upsert = try schema.entities.map { try store.prepare($0.upsertObjectSQL(in: schema)) }
        upsertJoin = try schema.entities.map { entity in
            try entity.manyToMany.map { try store.prepare(entity.upsertJoinSQL($0, in: schema)) }
        }
    }

    public func write(_ batch: RecordBatch, pass: Int) throws {
        // pks this batch has upserted: references to them need no lookup inside the statement.
        var known = KnownPKs(entityCount: schema.entities.count)
        let unique = UniqueObjects(entityCount: schema.entities.count, occurrences: batch.occurrences)
        for entity in schema.entities.indices {
            let statement = upsert[entity]
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
                    let join = upsertJoin[entity][relationship]
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

    /// Executes the upsert; a NULL foreign key returned for a named target is a dangling reference.
    private func run(_ statement: Statement, for occurrence: RecordOccurrence) throws -> Int64 {
        defer { statement.reset() }
        guard try statement.step() else {
            throw StoreError(extendedCode: 1, message: "upsert returned no row", sql: statement.sql)
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
