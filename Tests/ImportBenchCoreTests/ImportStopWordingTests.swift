import ImportBenchStore
import Testing

@testable import ImportBenchCore

@Suite("What a failure says is safe")
struct ImportStopWordingTests {
    @Test("a failed COMMIT (a full disk) and a store that could not be created say what stays committed")
    func wording() {
        let error = StoreError(extendedCode: 13, message: "database or disk is full", sql: "COMMIT")
        let committing = ImportStop(
            strategy: "naive", stage: .committing, pass: 0, batch: nil, batchIndex: 12, committedBatches: 12, committedOccurrences: 6_000,
            databasePath: "/data/store-naive.sqlite", checkpointed: true, cause: error)
        #expect(committing.description.hasPrefix("naive: committing batch 12 failed: "))
        #expect(
            committing.description.hasSuffix(
                "The failed batch was rolled back; batches 0-11 (6000 occurrences) stay committed in /data/store-naive.sqlite; run the same command again to resume."
            ))
        let creating = ImportStop(
            strategy: "naive", stage: .creating, pass: 0, batch: nil, batchIndex: nil, committedBatches: 0, committedOccurrences: 0,
            databasePath: "/data/store-naive.sqlite", checkpointed: true, cause: error)
        #expect(creating.description.hasSuffix("Nothing was imported; nothing of this import is committed in /data/store-naive.sqlite."))
    }
}
