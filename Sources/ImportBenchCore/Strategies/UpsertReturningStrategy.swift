import ImportBenchStore

/// `upsert` with `RETURNING pk, <foreign keys>`: what an app writes when it must hold every object's
/// pk (to update an in-memory graph, say). Listed beside `upsert` so the table shows what RETURNING
/// costs: SQLite builds an ephemeral table for the returned rows on every execution.
public final class UpsertReturningStrategy: ImportStrategy {
    public static let name = "upsert-returning"
    public static let summary = "upsert with RETURNING pk and foreign keys per unique object; no fetches"

    private let writer: OneStatementWriter
    private let sweep: RefreshSweep

    public init(context: StrategyContext) throws {
        writer = try OneStatementWriter(
            context: context, pkSource: .returning,
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
