import ImportBenchStore

/// Per batch, per entity in dependency order: `INSERT ... ON CONFLICT(key) DO UPDATE` for each unique
/// object, as SQLite users write it: no reads and no RETURNING. Foreign keys come from the pks this
/// batch has inserted, or are resolved inside the statement from the target's key. Never
/// `INSERT OR REPLACE`: that deletes the row and its children.
public final class UpsertStrategy: ImportStrategy {
    public static let name = "upsert"
    public static let summary = "INSERT ... ON CONFLICT(key) DO UPDATE per unique object, foreign keys resolved by key inside it; no fetches"

    private let writer: OneStatementWriter
    private let sweep: RefreshSweep

    public init(context: StrategyContext) throws {
        writer = try OneStatementWriter(
            context: context, pkSource: .lastInsertRowid,
            objectSQL: { entity, schema, generation in entity.upsertObjectWithoutReturningSQL(in: schema, generation: generation) },
            joinSQL: { entity, relationship, schema, generation in
                entity.upsertJoinByKeysSQL(relationship, in: schema, generation: generation)
            })
        sweep = try RefreshSweep(context: context)
    }

    public func write(_ batch: RecordBatch, pass: Int) throws {
        try writer.write(batch)
    }

    public func finishPass(_ pass: Int) throws {
        try sweep.run()
    }
}
