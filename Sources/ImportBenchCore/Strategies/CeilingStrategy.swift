import ImportBenchStore

/// The physical reference, not a strategy to ship: the payload's unique objects as plain prepared
/// INSERTs with pks assigned up front, into an empty store, in one transaction. Every other time is
/// also given as a multiple of this one, measured in the same run, so ratios compare across machines.
public final class CeilingStrategy: ImportStrategy {
    public static let name = "ceiling"
    public static let summary = "reference: plain INSERTs of the unique objects into an empty store, one transaction"
    public static let role = StrategyRole.reference

    private let schema: Schema
    private let insert: [Statement]
    private let insertJoin: [[Statement]]
    private var unique: UniqueObjects

    public var transactionScope: TransactionScope { .wholePass }

    public init(context: StrategyContext) throws {
        schema = context.schema
        let store = context.store
        insert = try schema.entities.map { try store.prepare($0.insertObjectWithPKSQL(generation: context.generation)) }
        insertJoin = try schema.entities.map { entity in
            try entity.manyToMany.map { try store.prepare(entity.insertJoinSQL($0, generation: context.generation)) }
        }
        unique = UniqueObjects(entityCount: schema.entities.count)
    }

    public func write(_ batch: RecordBatch, pass: Int) throws {
        for occurrence in batch.occurrences { unique.add(occurrence) }
    }

    /// The store is empty, so an object's pk is its position among its entity's unique objects plus one.
    public func finishPass(_ pass: Int) throws {
        defer { unique.removeAll() }
        for entity in schema.entities.indices {
            let targets = schema.toOneTargets[entity]
            for (slot, object) in unique.objects[entity].enumerated() {
                let occurrence = object.occurrence
                let foreignKeys = try occurrence.toOne.enumerated().map { index, reference -> Int64? in
                    guard let reference else { return nil }
                    guard let pk = pk(entity: targets[index], key: reference.key) else {
                        throw ImportError.dangling(occurrence, toOne: index, in: schema)
                    }
                    return pk
                }
                let statement = insert[entity]
                statement.bind(Int64(slot + 1), at: 1)
                statement.bindObject(occurrence, foreignKeys: foreignKeys, from: 2)
                try statement.execute()
                for (relationship, keys) in object.manyToManyKeys.enumerated() {
                    let target = schema.manyToManyTargets[entity][relationship]
                    for key in keys {
                        guard let targetPK = pk(entity: target, key: key) else {
                            throw ImportError.dangling(occurrence, manyToMany: relationship, targetKey: key, in: schema)
                        }
                        let join = insertJoin[entity][relationship]
                        join.bind(Int64(slot + 1), at: 1)
                        join.bind(targetPK, at: 2)
                        try join.execute()
                    }
                }
            }
        }
    }

    private func pk(entity: Int, key: DatabaseValue) -> Int64? {
        unique.slot(entity: entity, key: key).map { Int64($0 + 1) }
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
        let loader = try CeilingStrategy(context: StrategyContext(schema: schema, store: store, generation: 0))
        let batcher = RecordBatcher(reader: reader, batchSize: batchSize)
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
