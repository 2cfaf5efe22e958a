import ImportBenchPayload
import ImportBenchSchema
import ImportBenchStore

/// Writes each unique object of a batch with one statement that inserts or overwrites it (upsert,
/// upsert-returning and the replace pitfall differ in that statement and in how they learn the pk).
final class OneStatementWriter {
    /// How the writer learns the pk of the row its statement wrote.
    enum PKSource {
        /// The statement ends in `RETURNING pk, <foreign keys>`: the pk is always known, and a NULL
        /// foreign key returned for a named target is a dangling reference. Join statements take
        /// source pk, then (target pk or NULL, target key).
        case returning
        /// No RETURNING: an inserted row's pk is the connection's last insert rowid (cleared before
        /// each execution); an updated row's stays unknown and later statements resolve it by key.
        /// A dangling reference fails the statement's constraints. Join statements take (source pk
        /// or NULL, source key), then (target pk or NULL, target key).
        case lastInsertRowid
    }

    let schema: Schema
    let store: StoreConnection
    let pkSource: PKSource
    /// Per entity and set of columns left out: key, attributes, then per foreign key (pk or NULL, target key).
    let objectStatements: StatementsByAbsence
    /// Per entity and many-to-many relationship.
    let joinStatements: [[StoreStatement]]
    /// Per entity: whether any relationship points at it. Only such pks are worth remembering.
    let isReferenced: [Bool]
    /// pks this batch has learnt: references to them need no lookup inside the statement.
    private var known: KnownPKs
    private let unique: UniqueObjects
    private let listing: ListingStamp

    /// Prepares `objectSQL` per entity (and, when first needed, per set of columns a partial object
    /// leaves out) and `joinSQL` per many-to-many relationship, given the import's generation.
    init(
        context: StrategyContext, pkSource: PKSource, objectSQL: @escaping (Entity, Schema, Int64, ColumnSet) -> String,
        joinSQL: (Entity, ManyToManyRelationship, Schema, Int64) -> String
    ) throws {
        let schema = context.schema
        let store = context.store
        let generation = context.generation
        self.schema = schema
        self.store = store
        self.pkSource = pkSource
        objectStatements = try StatementsByAbsence(store: store, entityCount: schema.entities.count) { entity, absent in
            objectSQL(schema.entities[entity], schema, generation, absent)
        }
        joinStatements = try schema.entities.map { entity in
            try entity.manyToMany.map { try store.prepare(joinSQL(entity, $0, schema, generation)) }
        }
        var isReferenced = Array(repeating: false, count: schema.entities.count)
        for target in (schema.toOneTargets + schema.manyToManyTargets).joined() { isReferenced[target] = true }
        self.isReferenced = isReferenced
        known = KnownPKs(entityCount: schema.entities.count)
        unique = UniqueObjects(entityCount: schema.entities.count)
        listing = ListingStamp(context: context)
    }

    func write(_ batch: RecordBatch) throws {
        known.removeAll()
        unique.collect(batch)
        for entity in schema.entities.indices {
            let targets = schema.toOneTargets[entity]
            try unique.forEachObject(of: entity) { _, object, occurrence in
                guard let statement = try objectStatements.statement(for: occurrence) else { return }
                var index = statement.bindObject(occurrence, foreignKeys: [])
                for (relationship, reference) in occurrence.toOne.enumerated() {
                    if let reference, let pk = known[targets[relationship], reference.keyID] {
                        statement.bind(pk, at: index)
                    } else {
                        statement.bindNull(at: index)
                    }
                    statement.bind(reference?.key ?? RecordValue.null, at: index + 1)
                    index += 2
                }
                statement.bindListed(listing.value(entityIndex: entity, listsChildren: object.listsChildren), at: index)
                let pk = try run(statement, for: occurrence)
                if let pk, isReferenced[entity] { known[entity, occurrence.keyID] = pk }
                guard !occurrence.manyToMany.isEmpty else { return }
                for (relationship, references) in unique.manyToMany(object).enumerated() {
                    let target = schema.manyToManyTargets[entity][relationship]
                    let join = joinStatements[entity][relationship]
                    var index: Int32 = 1
                    if let pk { join.bind(pk, at: index) } else { join.bindNull(at: index) }
                    if pkSource == .lastInsertRowid {
                        join.bind(occurrence.key, at: index + 1)
                        index += 1
                    }
                    for reference in references {
                        if let targetPK = known[target, reference.keyID] {
                            join.bind(targetPK, at: index + 1)
                        } else {
                            join.bindNull(at: index + 1)
                        }
                        join.bind(reference.key, at: index + 2)
                        do {
                            try join.execute()
                        } catch let error as StoreError where error.isConstraintViolation {
                            throw StrategyError.dangling(occurrence, manyToMany: relationship, targetKey: reference.key, in: schema)
                        }
                    }
                }
            }
        }
    }

    /// Executes the object's statement; returns its pk when the writer can know it.
    private func run(_ statement: StoreStatement, for occurrence: BatchOccurrence) throws -> Int64? {
        defer { statement.reset() }
        switch pkSource {
        case .lastInsertRowid:
            store.lastInsertRowid = 0
            do {
                while try statement.step() {}
            } catch let error as StoreError where error.isConstraintViolation {
                throw try danglingReference(of: occurrence) ?? error
            }
            let inserted = store.lastInsertRowid
            return inserted != 0 ? inserted : nil
        case .returning:
            guard try statement.step() else {
                throw StoreError(extendedCode: 1, message: "\(statement.kind) returned no row", sql: statement.sql)
            }
            for index in occurrence.toOne.indices where occurrence.toOne[index] != nil {
                if statement.isNull(at: Int32(index + 1)) {
                    throw StrategyError.dangling(occurrence, toOne: index, in: schema)
                }
            }
            let pk = statement.int64(at: 0)
            while try statement.step() {}
            return pk
        }
    }

    /// After a failed statement: the first to-one reference whose target is neither known nor stored.
    /// Only a failing import pays for these lookups.
    private func danglingReference(of occurrence: BatchOccurrence) throws -> StrategyError? {
        let targets = schema.toOneTargets[occurrence.entityIndex]
        for (index, reference) in occurrence.toOne.enumerated() {
            guard let reference, known[targets[index], reference.keyID] == nil else { continue }
            let lookup = try store.prepare(schema.entities[targets[index]].selectPKByKeySQL)
            lookup.bind(reference.key, at: 1)
            if try lookup.scalarInt64() == nil { return StrategyError.dangling(occurrence, toOne: index, in: schema) }
        }
        return nil
    }
}
