import Foundation
import ImportBenchStore

extension SeedCopyMethod {
    /// What an app pays to adopt `seed` instead of importing, timed like an import: copy the store
    /// to a staging name beside the run's store, open and check it, rename it into place, open it
    /// with the run's settings. The digest is taken afterwards, untimed, as for every strategy.
    static func adopt(_ seed: String, in run: ImportRun) throws -> ImportMeasurement {
        let databasePath = run.databasePath
        try DatabaseFile.removeOwnStore(databasePath)
        let staged = databasePath + ".adopting"
        DatabaseFile.remove(staged)
        defer { DatabaseFile.remove(staged) }

        var measurement = ImportMeasurement()
        var checkCounts = StatementCounts()
        var adopted: StoreConnection?
        // Every connection is opened inside the clock, so none is counted by `measure`: the counts
        // are the check's and the adopted store's, added below. No reader probe: until the copy is
        // in place there is no store for a screen to read.
        try run.measure(into: &measurement, store: nil, probeHz: nil) { _ in
            try stage(seed, at: staged)
            checkCounts = try check(staged, copiedFrom: seed, scenario: run.scenario)
            try DatabaseFile.publish(staged, as: databasePath, durable: run.options.store.synchronous != .off)
            let store = try StoreConnection(path: databasePath)
            try run.configure(store)
            adopted = store
        }
        guard let store = adopted else {
            throw ImportError.seedStore(path: seed, problem: .notAdopted(at: databasePath))
        }
        measurement.counts = checkCounts + store.counter.counts
        measurement.digest = try run.scenario.schema.digest(of: store)
        measurement.databaseBytes = DatabaseFile.size(databasePath)
        return measurement
    }

    /// Copies the seed's main file and its -wal, which may hold committed pages the main file lacks;
    /// never its -shm, an index SQLite rebuilds from the WAL. A non-empty -journal means a write to
    /// the seed was cut short and its main file may be torn, so the seed is refused.
    private static func stage(_ seed: String, at staged: String) throws {
        let journal = seed + "-journal"
        if let size = (try? FileManager.default.attributesOfItem(atPath: journal))?[.size] as? NSNumber, size.int64Value > 0 {
            throw ImportError.seedStore(
                path: seed,
                problem: .hotJournal(journal: journal))
        }
        try DatabaseFile.copyContents(from: seed, to: staged)
        if FileManager.default.fileExists(atPath: seed + "-wal") {
            try DatabaseFile.copyContents(from: seed + "-wal", to: staged + "-wal")
        }
    }

    /// Opens the staged copy as a careful app would before trusting it: `PRAGMA quick_check` must
    /// say ok and the metadata must name this scenario. A copied WAL is checkpointed into the main
    /// file, so the one file renamed into place holds everything. Returns what its statements cost.
    private static func check(_ staged: String, copiedFrom seed: String, scenario: any Scenario) throws -> StatementCounts {
        let store = try StoreConnection(path: staged)
        let quickCheck = try store.prepare("PRAGMA quick_check")
        var problems: [String] = []
        while try quickCheck.step() {
            if case .text(let line) = quickCheck.value(at: 0), line != "ok" { problems.append(line) }
        }
        quickCheck.reset()
        guard problems.isEmpty else {
            throw ImportError.seedStore(
                path: seed, problem: .failsQuickCheck(problems: problems))
        }
        guard let metadata = try SeedStoreMetadata.read(from: store) else {
            throw ImportError.seedStore(path: seed, problem: .noMetadata(table: SeedStoreMetadata.table))
        }
        guard metadata.scenario == scenario.name else {
            throw ImportError.seedStore(
                path: seed,
                problem: .otherScenario(found: metadata.scenario, wanted: scenario.name))
        }
        if FileManager.default.fileExists(atPath: staged + "-wal") {
            let checkpoint = try store.prepare("PRAGMA wal_checkpoint(TRUNCATE)")
            defer { checkpoint.reset() }
            guard try checkpoint.step(), checkpoint.int64(at: 0) == 0 else {
                throw ImportError.seedStore(path: seed, problem: .walNotCheckpointed(into: staged))
            }
        }
        return store.counter.counts
    }
}
