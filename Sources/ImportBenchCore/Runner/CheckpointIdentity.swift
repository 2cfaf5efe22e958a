import Foundation
import ImportBenchPayload
import ImportBenchSchema
import ImportBenchStrategies

/// What must be the same for a checkpointed import to be continued: kept as JSON in the store's
/// ledger, so a refusal names each difference ("batch size: 500 in the checkpoint, 1000 now")
/// instead of discarding committed batches.
struct CheckpointIdentity: Codable, Equatable {
    var scenario: String
    var strategy: String
    var batchSize: String
    /// The method's settings (`StrategySettings.text`): prewarm's chunk, a plug-in's own.
    var strategySettings: String
    var onError: String
    /// How CSV text was read (`utf-8` for JSON payloads, which have no choice).
    var encoding: String
    /// Placeholders add occurrences, so the policy moves every batch boundary after the first.
    var missingReference: String
    /// Where the payload came from: the generator's scale and seed, or "recorded".
    var payloadSource: String
    /// The whole payload's hash (`PayloadHasher`), or, where no one read it whole first, its
    /// fingerprint (first and last 64 KiB).
    var payload: String
    var preload: String
    var journal: String
    var synchronous: String
    /// `--pragma` settings (`StoreSettings.pragmaText`); nil in a ledger written before them, which had none.
    var pragmas: String?
    /// The tables' layout (`Schema.storeLayout`): a store of another layout cannot take more batches.
    /// A ledger written before the field existed does not decode, and is refused as another version's.
    var storeLayout: Int

    /// The fields with the words a refusal uses for them.
    private static var labels: [(String, KeyPath<CheckpointIdentity, String>)] {
        [
            ("scenario", \.scenario), ("strategy", \.strategy), ("batch size", \.batchSize), ("strategy settings", \.strategySettings),
            ("on-error", \.onError), ("encoding", \.encoding), ("missing-reference", \.missingReference), ("payload source", \.payloadSource),
            ("payload content", \.payload), ("preload", \.preload),
            ("journal", \.journal), ("synchronous", \.synchronous), ("pragmas", \.pragmaText), ("store layout", \.storeLayoutText),
        ]
    }

    private var storeLayoutText: String { String(storeLayout) }
    private var pragmaText: String { pragmas ?? "" }

    init(_ run: ImportRun) {
        scenario = run.scenario.name
        strategy = run.method.name
        batchSize = run.options.batchSize.description
        strategySettings = StrategySettings(run.method.settings).text
        onError = run.options.onError.rawValue
        encoding = run.scenario.effectiveReading(run.options.reading).encoding.rawValue
        missingReference = run.options.missingReference.rawValue
        payloadSource = run.payloadIdentity?.source ?? "recorded"
        payload = run.payloadIdentity?.digest ?? "fingerprint " + PayloadFingerprint.of(run.payloadPath)
        preload = run.payloadIdentity?.preloadDigest ?? run.preloadPath.map { "fingerprint " + PayloadFingerprint.of($0) } ?? "none"
        journal = run.options.store.journal.rawValue
        synchronous = run.options.store.synchronous.rawValue
        pragmas = run.options.store.pragmaText.isEmpty ? nil : run.options.store.pragmaText
        storeLayout = Schema.storeLayout
    }

    /// As the ledger keeps it: JSON with sorted keys, so the same identity is the same text.
    var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// The identity a ledger recorded; nil for text this version of bench did not write.
    init?(text: String) {
        guard let value = try? JSONDecoder().decode(CheckpointIdentity.self, from: Data(text.utf8)) else { return nil }
        self = value
    }

    /// Each field that differs from `recorded`, as "batch size: 500 in the checkpoint, 1000 now".
    func differences(fromRecorded recorded: CheckpointIdentity) -> [String] {
        Self.labels.compactMap { label, field in
            recorded[keyPath: field] == self[keyPath: field]
                ? nil : "\(label): \(recorded[keyPath: field]) in the checkpoint, \(self[keyPath: field]) now"
        }
    }
}

/// What the benchmark learnt of a run's payload by reading it whole before any import: its hash
/// and the preload's, and where it came from.
package struct PayloadIdentity: Codable, Sendable, Equatable {
    package var source: String
    package var digest: String
    package var preloadDigest: String?

    package init(source: String, digest: String, preloadDigest: String?) {
        self.source = source
        self.digest = digest
        self.preloadDigest = preloadDigest
    }
}
