import ImportBenchPayload
import ImportBenchStore

/// The pitfall: upsert written as `INSERT OR REPLACE`. On a conflict SQLite deletes the stored row
/// and inserts a new one with a new pk, so the delete cascades to its owned children and nullifies
/// every link to it, as Core Data's constraint-based upsert does to to-many relationships. Listed
/// so the verifier can show which relationships lose rows; `--strategy all` never runs it.
package final class ReplaceStrategy: ImportStrategy {
    package static let name = "replace"
    package static let summary = "PITFALL: INSERT OR REPLACE per unique object; deletes and re-creates rows, losing their children and links"
    package static let role = StrategyRole.pitfall

    private let writer: OneStatementWriter

    package init(context: StrategyContext) throws {
        writer = try OneStatementWriter(
            context: context, pkSource: .returning,
            // REPLACE deletes the stored row: what a partial object leaves out is lost with it, the pitfall.
            objectSQL: { entity, schema, generation, _ in entity.replaceObjectSQL(in: schema, generation: generation) },
            joinSQL: { entity, relationship, schema, generation in
                entity.replaceJoinSQL(relationship, in: schema, generation: generation)
            })
    }

    package func write(_ batch: RecordBatch, pass: Int) throws {
        try writer.write(batch)
    }
}
