import ImportBenchPayload

/// A payload read through its scenario's reader and batcher with no store behind them: what the
/// import loop's `decode_s` covers, alone, so the decoder can be measured and profiled by itself
/// and a user's file checked before any import.
package struct DecodeMeasurement: Sendable {
    package var payloadBytes: Int64
    package var units = 0
    package var occurrences = 0
    package var batches = 0
    package var seconds = 0.0
    package var skippedRecords: [String: Int] = [:]

    /// Payload bytes per second of decoding, in MB (10^6 bytes).
    package var megabytesPerSecond: Double { seconds > 0 ? Double(payloadBytes) / seconds / 1e6 : 0 }

    /// Reads `path` once, batching as an import at `batchSize` would, and times the whole read.
    package static func measure(
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
