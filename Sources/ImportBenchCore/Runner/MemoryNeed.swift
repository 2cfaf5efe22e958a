import Foundation

/// Whether the memory a run needs at a scale is there, known before anything is generated. What
/// grows with the payload is what the ceiling keeps: every batch's record buffers until its one
/// transaction commits (the strategies let each batch go). Their size per payload byte is measured
/// on a 0.1x sample, decoded into batches as an import decodes it.
public enum MemoryNeed {
    /// Record-buffer bytes per payload byte, from a sample of the scenario at 0.1x.
    public static func recordBytesPerPayloadByte(of scenario: any Scenario) throws -> Double {
        let directory = try RunDirectory.create()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("sample").path
        try scenario.generate(scale: 0.1, seed: 1, to: path)
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
        let payload = Double(PayloadSize.bytes(at: path))
        return withExtendedLifetime(kept) { payload > 0 ? Double(storages.values.reduce(0, +)) / payload : 0 }
    }

    /// Refuses a run whose ceiling would keep more record buffers than the memory available now.
    public static func check(
        _ scenario: any Scenario, payloadBytes: Double, recordBytesPerPayloadByte: Double, describing what: String
    ) throws(RunRequestError) {
        guard let available = availableBytes() else { return }
        let need = payloadBytes * recordBytesPerPayloadByte
        guard need > available else { return }
        throw .notEnoughMemory(what: what, need: DiskNeed.describe(need), available: DiskNeed.describe(available))
    }

    /// The kernel's estimate of memory available to a new process without swapping (MemAvailable).
    static func availableBytes() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("MemAvailable:") {
            let fields = line.split(separator: " ")
            guard fields.count >= 2, let kilobytes = Double(fields[1]) else { return nil }
            return kilobytes * 1024
        }
        return nil
    }
}
