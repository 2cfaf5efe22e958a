import GRDB
import GRDBImporters
import ImportBench

// A fixture for the tests, not an importer to copy: what happens when a plug-in installs a trace of
// its own. SQLite keeps one trace per connection, so GRDB's `db.trace` replaces the one bench counts
// with; bench must refuse the run (its counts would be short) rather than report it.

/// grdb-upsert's writes, plus a GRDB connection of its own, traced by GRDB, that reads once after
/// the last batch.
final class GRDBTraced: ImportStrategy {
    static let name = "grdb-traced"
    static let summary = "grdb-upsert, plus a connection of its own with GRDB's db.trace installed (bench refuses the run)"

    var transactionScope: TransactionScope { .strategy }
    private let writer: GRDBUpsert
    private let reader: DatabaseQueue

    init(context: StrategyContext) throws {
        writer = try GRDBUpsert(context: context)
        var configuration = Configuration()
        configuration.prepareDatabase { db in db.trace { _ in } }
        reader = try DatabaseQueue(path: context.store.path, configuration: configuration)
    }

    func write(_ batch: RecordBatch, pass: Int) throws { try writer.write(batch, pass: pass) }

    func finishPass(_ pass: Int) throws {
        try writer.finishPass(pass)
        _ = try reader.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
    }
}

Bench.main(strategies: GRDBStrategies.all + [GRDBTraced.self])
