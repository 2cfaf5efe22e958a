import ImportBench

/// An importer that regressed into an N+1 with a missing index: before each occurrence's upsert it
/// fetches the stored row by key with the index disabled (`+key`), so every fetch scans the table.
/// Its data stays right; its fetches grow with the occurrences and its SQLite work with their
/// square, which the expectations' fetch and growth rules must catch on every run.
final class ScanPerOccurrenceStrategy: ImportStrategy {
    static let name = "scan-per-occurrence"
    static let summary = "a full-table fetch per occurrence, then one-upsert's upsert (tests only)"

    private let upsert: OneUpsertStrategy
    private let scans: [StoreStatement]

    init(context: StrategyContext) throws {
        upsert = try OneUpsertStrategy(context: context)
        scans = try context.schema.entities.map { entity in
            try context.store.prepare("SELECT pk FROM \"\(entity.name)\" WHERE +\"\(entity.key.name)\" = ?")
        }
    }

    func write(_ batch: RecordBatch, pass: Int) throws {
        for occurrence in batch.occurrences {
            let scan = scans[occurrence.entity.index]
            scan.bind(occurrence.key, at: 1)
            while try scan.step() {}
            scan.reset()
        }
        try upsert.write(batch, pass: pass)
    }

    func finishPass(_ pass: Int) throws {
        try upsert.finishPass(pass)
    }
}
