/// `upsert` with `RETURNING pk, <foreign keys>`: what an app writes when it must hold every object's
/// pk (to update an in-memory graph, say). Listed beside `upsert` so the table shows what RETURNING
/// costs: SQLite builds an ephemeral table for the returned rows on every execution.
package final class UpsertReturningStrategy: UpsertStrategy {
    override package class var name: String { "upsert-returning" }
    override package class var summary: String { "upsert with RETURNING pk and foreign keys per unique object; no fetches" }
    override class var returning: Bool { true }
}
