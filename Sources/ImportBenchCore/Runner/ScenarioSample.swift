import Foundation

/// What a scenario's payload costs per unit of scale, learnt from one sample at 0.1x generated in a
/// scratch directory: its bytes, and the record buffers decoding it fills. `DiskNeed` and
/// `MemoryNeed` judge any scale from these before anything is generated.
public struct ScenarioSample: Sendable {
    /// The payload's bytes at 1x.
    public let payloadBytesAtBaseScale: Double
    /// Record-buffer bytes per payload byte: what the ceiling keeps until its one transaction.
    public let recordBytesPerPayloadByte: Double

    static let scale = 0.1

    public init(of scenario: any Scenario) throws {
        let directory = try RunDirectory.create()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("sample").path
        try scenario.generate(scale: Self.scale, seed: 1, to: path)
        let payload = Double(PayloadSize.bytes(at: path))
        payloadBytesAtBaseScale = payload / Self.scale
        let batcher = RecordBatcher(reader: try scenario.openReader(path: path), batchSize: .default, schema: scenario.schema)
        // Kept, as the ceiling keeps them: a storage freed early could lend its address, and so its
        // identity, to the next one.
        var kept: [RecordBatch] = []
        var storages: [ObjectIdentifier: Int] = [:]
        while let batch = try batcher.next() {
            kept.append(batch)
            for segment in [batch.occurrences.first, batch.occurrences.second] where segment.count > 0 {
                storages[ObjectIdentifier(segment.storage)] = segment.storage.allocatedBytes
            }
        }
        let records = withExtendedLifetime(kept) { Double(storages.values.reduce(0, +)) }
        recordBytesPerPayloadByte = payload > 0 ? records / payload : 0
    }
}
