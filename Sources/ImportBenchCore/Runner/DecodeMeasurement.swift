/// A payload read through its scenario's reader and batcher with no store behind them: what the
/// import loop's `decode_s` covers, alone, so the decoder can be measured and profiled by itself
/// and a user's file checked before any import.
public struct DecodeMeasurement: Sendable {
    public var payloadBytes: Int64
    public var units = 0
    public var occurrences = 0
    public var batches = 0
    public var seconds = 0.0
    public var skippedRecords: [String: Int] = [:]

    /// Payload bytes per second of decoding, in MB (10^6 bytes).
    public var megabytesPerSecond: Double { seconds > 0 ? Double(payloadBytes) / seconds / 1e6 : 0 }

    /// Reads `path` once, batching as an import at `batchSize` would, and times the whole read.
    public static func measure(
        scenario: any Scenario, path: String, batchSize: BatchSize, reading: PayloadReading
    ) throws -> DecodeMeasurement {
        var result = DecodeMeasurement(payloadBytes: PayloadSize.bytes(at: path))
        let start = MonotonicClock.now()
        let reader = try scenario.openPayload(path: path, reading: reading)
        let batcher = RecordBatcher(reader: reader, batchSize: batchSize, schema: scenario.schema)
        while let batch = try batcher.next() {
            result.batches += 1
            result.occurrences += batch.occurrences.count
            if let last = batch.occurrences.last { result.units = last.unit + 1 }
        }
        result.seconds = MonotonicClock.now() - start
        result.skippedRecords = reader.skippedRecords
        return result
    }
}
