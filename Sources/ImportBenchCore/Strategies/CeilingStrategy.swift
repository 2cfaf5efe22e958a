import ImportBenchStore

/// The physical reference, not a strategy to ship: the payload's unique objects as plain prepared
/// INSERTs with pks assigned up front, into an empty store, in one transaction. Every other time is
/// also given as a multiple of this one, measured in the same run, so ratios compare across machines.
package final class CeilingStrategy: ImportStrategy, MeasuredMethod {
    package static let name = "ceiling"
    package static let summary = "reference: plain INSERTs of the unique objects into an empty store, one transaction"
    package static let role = StrategyRole.reference

    private let schema: Schema
    private let insert: [Statement]
    private let insertJoin: [[Statement]]
    private let unique: UniqueObjects
    private let listing: ListingStamp

    package var transactionScope: TransactionScope { .wholePass }

    package init(context: StrategyContext) throws {
        schema = context.schema
        let store = context.store
        let schema = context.schema
        insert = try schema.entities.map { try store.prepare($0.insertObjectWithPKSQL(in: schema, generation: context.generation)) }
        insertJoin = try schema.entities.map { entity in
            try entity.manyToMany.map { try store.prepare(entity.insertJoinSQL($0, generation: context.generation)) }
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
        func pk(entity: Int, id: Int32) -> Int64? {
            unique.slot(entity: entity, id: id).map { Int64($0 + 1) }
        }
        for entity in schema.entities.indices {
            let targets = schema.toOneTargets[entity]
            let statement = insert[entity]
            try unique.forEachObject(of: entity) { slot, object, occurrence in
                statement.bind(Int64(slot + 1), at: 1)
                var index = statement.bindObject(occurrence, foreignKeys: [], from: 2)
                for (relationship, reference) in occurrence.toOne.enumerated() {
                    if let reference {
                        guard let pk = pk(entity: targets[relationship], id: reference.keyID) else {
                            throw ImportError.dangling(occurrence, toOne: relationship, in: schema)
                        }
                        statement.bind(pk, at: index)
                    } else {
                        statement.bindNull(at: index)
                    }
                    index += 1
                }
                statement.bindListed(listing.value(entity: entity, listsChildren: object.listsChildren), at: index)
                try statement.execute()
                guard !occurrence.manyToMany.isEmpty else { return }
                for (relationship, references) in unique.manyToMany(object).enumerated() {
                    let target = schema.manyToManyTargets[entity][relationship]
                    let join = insertJoin[entity][relationship]
                    for reference in references {
                        guard let targetPK = pk(entity: target, id: reference.keyID) else {
                            throw ImportError.dangling(occurrence, manyToMany: relationship, targetKey: reference.key, in: schema)
                        }
                        join.bind(Int64(slot + 1), at: 1)
                        join.bind(targetPK, at: 2)
                        try join.execute()
                    }
                }
            }
        }
    }
}

extension CeilingStrategy {
    /// Loads every record of `reader` into an empty store at generation 0, below every import's: the
    /// cheapest faithful load, for a refresh's preload and for a seed store. The caller owns the
    /// transaction; `beforeBatch` may throw to stop. Returns the occurrences read.
    @discardableResult
    static func load(
        _ reader: any RecordReader, schema: Schema, into store: Connection, batchSize: BatchSize,
        beforeBatch: () throws -> Void = {}
    ) throws -> Int {
        let context = StrategyContext(schema: schema, store: store, generation: 0)
        let loader = try CeilingStrategy(context: context)
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
