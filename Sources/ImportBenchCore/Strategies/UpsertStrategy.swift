import ImportBenchStore

/// Per batch, per entity in dependency order: `INSERT ... ON CONFLICT(key) DO UPDATE ... RETURNING pk`
/// for each unique object, no reads. Never `INSERT OR REPLACE`: that deletes the row and its children.
public final class UpsertStrategy: ImportStrategy {
    public static let name = "upsert"
    public static let summary = "INSERT ... ON CONFLICT(key) DO UPDATE ... RETURNING pk per unique object; no fetches"

    private let writer: OneStatementWriter
    private let sweep: RefreshSweep

    public init(context: StrategyContext) throws {
        writer = try OneStatementWriter(
            context: context,
            objectSQL: { entity, schema, generation in entity.upsertObjectSQL(in: schema, generation: generation) },
            joinSQL: { entity, relationship, schema, generation in
                entity.upsertJoinSQL(relationship, in: schema, generation: generation)
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
