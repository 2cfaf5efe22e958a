import ImportBenchPayload
import ImportBenchSchema
import ImportBenchStore

/// SQLite's limit for the payload's rows, not a strategy to ship: the unique objects, pks assigned
/// up front, loaded into an empty store the fastest way SQLite allows: rows in pk order,
/// `rowsPerInsert` to an INSERT, every index (natural keys' uniqueness too) dropped first and built
/// after the rows, one transaction; the same final schema as every strategy's. Every other time is
/// also given as a multiple of this one, measured in the same run, so ratios compare across machines.
package final class CeilingStrategy: ImportStrategy {
    package static let name = "ceiling"
    package static let summary =
        "SQLite's limit: the unique objects in pk order, \(rowsPerInsert) rows per INSERT, indexes built after the rows, one transaction"
    package static let role = StrategyRole.limit
    /// Rows per INSERT: where the C reference's sweep levelled off on chat and products 10x (issue 46).
    package static let rowsPerInsert = 50

    private let schema: Schema
    private let store: StoreConnection
    private let insert: [MultiRowInsert]
    private let insertPairs: [[MultiRowInsert]]
    private let unique: UniqueObjects
    private let listing: ListingStamp
    /// Whether the pass drops the schema's indexes before its rows and builds them after; off where
    /// the caller builds them itself (a seed store, which times its indexes apart).
    private let buildsIndexes: Bool
    /// One set's pairs (source pk, target pk), sorted into the join table's key order before writing.
    private var pairs: [(source: Int64, target: Int64)] = []

    package var transactionScope: TransactionScope { .wholePass }

    package convenience init(context: StrategyContext) throws {
        try self.init(context: context, buildsIndexes: true)
    }

    init(context: StrategyContext, buildsIndexes: Bool) throws {
        let schema = context.schema
        let store = context.store
        let generation = context.generation
        self.schema = schema
        self.store = store
        self.buildsIndexes = buildsIndexes
        insert = try schema.entities.map { entity in
            try MultiRowInsert(store: store, width: entity.objectWithPKWidth(in: schema), rowsPerInsert: Self.rowsPerInsert) { rows in
                entity.insertObjectsWithPKSQL(in: schema, generation: generation, rows: rows)
            }
        }
        insertPairs = try schema.entities.map { entity in
            try entity.manyToMany.map { relationship in
                try MultiRowInsert(store: store, width: 2, rowsPerInsert: Self.rowsPerInsert) { rows in
                    entity.insertJoinPairsSQL(relationship, generation: generation, rows: rows)
                }
            }
        }
        unique = UniqueObjects(entityCount: schema.entities.count)
        listing = ListingStamp(context: context)
    }

    package func write(_ batch: RecordBatch, pass: Int) throws {
        unique.add(batch)
    }

    /// The store is empty, so an object's pk is its position among its entity's unique objects plus one.
    /// What was collected is released with the strategy, after the measurement, as the C reference
    /// frees its rows after its clock stops.
    package func finishPass(_ pass: Int) throws {
        if buildsIndexes {
            for index in schema.indexNames { try store.execute("DROP INDEX \(quoted(index))") }
        }
        for entity in schema.entities.indices {
            try writeObjects(of: entity)
            for relationship in schema.entities[entity].manyToMany.indices {
                try writePairs(of: entity, relationship: relationship)
            }
        }
        if buildsIndexes {
            for statement in schema.indexDDL { try store.execute(statement) }
        }
    }

    @inline(__always)
    private func pk(entity: Int, id: Int32) -> Int64? {
        unique.slot(entity: entity, id: id).map { Int64($0 + 1) }
    }

    private func writeObjects(of entity: Int) throws {
        let targets = schema.toOneTargets[entity]
        let insert = self.insert[entity]
        insert.begin(rows: unique.count(of: entity))
        try unique.forEachObject(of: entity) { slot, object, occurrence in
            let (statement, first) = try insert.nextRow()
            statement.bind(Int64(slot + 1), at: first)
            var index = statement.bindObject(occurrence, foreignKeys: [], from: first + 1)
            for (relationship, reference) in occurrence.toOne.enumerated() {
                if let reference {
                    guard let pk = pk(entity: targets[relationship], id: reference.keyID) else {
                        throw StrategyError.dangling(occurrence, toOne: relationship, in: schema)
                    }
                    statement.bind(pk, at: index)
                } else {
                    statement.bindNull(at: index)
                }
                index += 1
            }
            statement.bindListed(listing.value(entityIndex: entity, listsChildren: object.listsChildren), at: index)
            try insert.rowBound()
        }
    }

    /// The set's pairs in the join table's key order (source pk, then target pk), as its rows lie.
    private func writePairs(of entity: Int, relationship: Int) throws {
        let target = schema.manyToManyTargets[entity][relationship]
        pairs.removeAll(keepingCapacity: true)
        try unique.forEachObject(of: entity) { slot, object, occurrence in
            guard !occurrence.manyToMany.isEmpty else { return }
            for reference in unique.manyToMany(object)[relationship] {
                guard let targetPK = pk(entity: target, id: reference.keyID) else {
                    throw StrategyError.dangling(occurrence, manyToMany: relationship, targetKey: reference.key, in: schema)
                }
                pairs.append((Int64(slot + 1), targetPK))
            }
        }
        try insertPairs[entity][relationship].writePairs(&pairs)
    }
}

extension CeilingStrategy {
    /// Loads every record of `reader` into an empty store at generation 0, below every import's: the
    /// cheapest faithful load, for a refresh's preload and for a seed store (whose tables have no
    /// indexes yet: `buildsIndexes` false). The caller owns the transaction; `beforeBatch` may throw
    /// to stop. Returns the occurrences read.
    @discardableResult
    package static func load(
        _ reader: any RecordReader, schema: Schema, into store: StoreConnection, batchSize: BatchSize, buildsIndexes: Bool = true,
        beforeBatch: () throws -> Void = {}
    ) throws -> Int {
        let context = StrategyContext(schema: schema, store: store, generation: 0)
        let loader = try CeilingStrategy(context: context, buildsIndexes: buildsIndexes)
        let batcher = RecordBatcher(reader: reader, batchSize: batchSize, schema: schema, interner: context.interner)
        var occurrences = 0
        while let batch = try batcher.next() {
            try beforeBatch()
            try loader.write(batch, pass: 0)
            occurrences += batch.occurrences.count
        }
        try loader.finishPass(0)
        return occurrences
    }
}
