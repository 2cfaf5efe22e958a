import Foundation
import ImportBenchPayload

/// What a scenario's payload costs per unit of scale, learnt from one sample at 0.1x generated in a
/// scratch directory: its bytes, and the record buffers decoding it fills. `DiskNeed` and
/// `MemoryNeed` judge any scale from these before anything is generated.
package struct ScenarioSample: Sendable {
    /// The payload's bytes at 1x.
    package let payloadBytesAtBaseScale: Double
    /// Record-buffer bytes per payload byte: what the ceiling keeps until its one transaction.
    package let recordBytesPerPayloadByte: Double

    static let scale = 0.1

    package init(of scenario: any Scenario) throws {
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
            for segment in batch.occurrences.segments {
                storages[ObjectIdentifier(segment.storage)] = segment.storage.allocatedBytes
            }
        }
        let records = withExtendedLifetime(kept) { Double(storages.values.reduce(0, +)) }
        recordBytesPerPayloadByte = payload > 0 ? records / payload : 0
    }

    /// Units a sample of a recorded payload reads: enough to average over, few enough to be quick.
    static let recordedUnits = 2_000

    /// For a scenario without a generator (a mapping file): its first units of the payload itself,
    /// records built as the import builds them, against the bytes they took. A payload whose first
    /// units cannot be read at all gives no estimate (0), and the import reports the error itself.
    package init(of scenario: any Scenario, recorded path: String) throws {
        let total = Double(PayloadSize.bytes(at: path))
        payloadBytesAtBaseScale = total
        let reader = try scenario.openReader(path: path, onError: .skip)
        let builder = RecordBuilder(schema: scenario.schema, interner: KeyInterner(entityCount: scenario.schema.entities.count))
        var units = 0
        var consumed = total
        do {
            while let unit = try reader.nextUnit() {
                guard units < Self.recordedUnits else {
                    consumed = Double(unit.byteOffset)
                    break
                }
                builder.append(unit)
                units += 1
            }
        } catch {
            consumed = 0
        }
        guard units > 0, consumed > 0 else {
            recordBytesPerPayloadByte = 0
            return
        }
        let batch = builder.cut(first: builder.count, index: 0)
        let storages = Dictionary(batch.occurrences.segments.map { (ObjectIdentifier($0.storage), $0.storage.allocatedBytes) }) { first, _ in first }
        recordBytesPerPayloadByte = Double(storages.values.reduce(0, +)) / consumed
    }
}
