import ImportBenchPayload
import ImportBenchStore

/// Per batch, per entity in dependency order: `INSERT ... ON CONFLICT(key) DO UPDATE` for each unique
/// object, as SQLite users write it: no reads and no RETURNING. Foreign keys come from the pks this
/// batch has inserted, or are resolved inside the statement from the target's key. Never
/// `INSERT OR REPLACE`: that deletes the row and its children.
package class UpsertStrategy: ImportStrategy {
    package class var name: String { "upsert" }
    package class var summary: String {
        "INSERT ... ON CONFLICT(key) DO UPDATE per unique object, foreign keys resolved by key inside it; no fetches"
    }
    /// Whether the statement returns the pk and foreign keys it wrote.
    class var returning: Bool { false }

    private let writer: OneStatementWriter
    private let sweep: RefreshSweep

    package required init(context: StrategyContext) throws {
        let returning = Self.returning
        writer = try OneStatementWriter(
            context: context, pkSource: returning ? .returning : .lastInsertRowid,
            objectSQL: { entity, schema, generation, absent in
                returning
                    ? entity.upsertObjectSQL(in: schema, generation: generation, absent: absent)
                    : entity.upsertObjectWithoutReturningSQL(in: schema, generation: generation, absent: absent)
            },
            joinSQL: { entity, relationship, schema, generation in
                returning
                    ? entity.upsertJoinSQL(relationship, in: schema, generation: generation)
                    : entity.upsertJoinByKeysSQL(relationship, in: schema, generation: generation)
            })
        sweep = try RefreshSweep(context: context)
    }

    package func write(_ batch: RecordBatch, pass: Int) throws {
        try writer.write(batch)
    }

    package func finishPass(_ pass: Int) throws {
        try sweep.run()
    }
}
