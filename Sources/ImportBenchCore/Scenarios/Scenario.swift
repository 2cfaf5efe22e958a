import Foundation
import ImportBenchPayload
import ImportBenchSchema

/// A payload family: its schema, a deterministic generator and a streaming reader for files of its shape.
package protocol Scenario: Sendable {
    /// The name used on the command line (`chat`).
    var name: String { get }
    /// How a run names this scenario, so it can be described as data and rebuilt elsewhere.
    var source: ScenarioSource { get }
    /// One line for `bench list` and `--help`.
    var summary: String { get }
    var schema: Schema { get }
    /// What the app's main screen reads, as one read-only SQL query without parameters: the reader
    /// probe (`--probe-reads`) runs it on a second connection while an import writes.
    var screenQuery: String { get }
    /// Writes the payload for `scale` (1 = the scenario's base size) and `seed` to `path`, streaming:
    /// memory does not grow with scale. Same scale and seed, same bytes.
    func generate(scale: Double, seed: UInt64, to path: String) throws
    /// Opens a streaming reader over a payload file of this scenario's shape; `reading` says whether a
    /// record that cannot be read stops the import or is skipped and counted, how long a row,
    /// element, string or number may be, and who hashes the bytes.
    func openReader(path: String, reading: PayloadReading) throws -> any RecordReader
    /// Writes an earlier payload for a refresh of what `generate` writes: `overlap` (0...1) of its
    /// objects are in it, `changed` (0...1) of those with other values. Throws where unsupported.
    func generatePreload(scale: Double, seed: UInt64, overlap: Double, changed: Double, to path: String) throws
    /// Whether its payload is CSV text, the only kind `--encoding` and `--max-csv-row-bytes` apply
    /// to (JSON is always UTF-8); the `--max-json-*` limits apply to the others.
    var readsCSV: Bool { get }
}

extension Scenario {
    /// The built-in scenarios are found by name; a scenario from elsewhere says where.
    package var source: ScenarioSource { .builtIn(name) }

    package var readsCSV: Bool { false }

    /// `reading` as this scenario's payload is read: options for the other kind of file (the
    /// encoding and row limit of CSV, the limits of JSON) at their defaults, so a seed store or a
    /// checkpoint does not record, or differ by, an option without effect.
    package func effectiveReading(_ reading: PayloadReading) -> PayloadReading {
        var effective = reading
        let defaults = PayloadLimits.default
        if readsCSV {
            effective.limits.longestJSONElementBytes = defaults.longestJSONElementBytes
            effective.limits.longestJSONStringBytes = defaults.longestJSONStringBytes
            effective.limits.longestJSONNumberBytes = defaults.longestJSONNumberBytes
        } else {
            effective.encoding = .utf8
            effective.limits.longestCSVRowBytes = defaults.longestCSVRowBytes
        }
        return effective
    }

    /// Where a generated payload goes in `directory`: named for what generated it, so a kept file says so.
    package func generatedPayloadPath(in directory: URL, scale: Scale, seed: UInt64) -> String {
        directory.appendingPathComponent("\(name)-\(scale)-seed\(seed)").path
    }

    /// The payload's records as every strategy and the verifier meet them: the scenario's reader,
    /// with `reading.missingReference` applied when it is not `fail`.
    package func openPayload(path: String, reading: PayloadReading) throws -> any RecordReader {
        let reader = try openReader(path: path, reading: reading)
        guard reading.missingReference != .fail else { return reader }
        return MissingReferenceResolver(reader, schema: schema, policy: reading.missingReference, stored: reading.storedKeys)
    }

    /// `reading` with the keys a store holds after loading `preloadPath` (read through the same
    /// policy), so a refresh's references may name them; unchanged when the policy is `fail`, which
    /// needs none, or there is no preload.
    package func reading(_ reading: PayloadReading, afterPreload preloadPath: String?) throws -> PayloadReading {
        guard let preloadPath, reading.missingReference != .fail else { return reading }
        var preloadReading = reading
        preloadReading.hasher = nil
        preloadReading.storedKeys = nil
        var result = reading
        result.storedKeys = try StoredKeys(
            reading: openPayload(path: preloadPath, reading: preloadReading), entityCount: schema.entities.count)
        return result
    }

    package func openReader(path: String) throws -> any RecordReader {
        try openReader(path: path, reading: PayloadReading())
    }

    /// With the default limits and no hasher.
    package func openReader(path: String, onError: PayloadErrorPolicy) throws -> any RecordReader {
        try openReader(path: path, reading: PayloadReading(onError: onError))
    }

    package func generatePreload(scale: Double, seed: UInt64, overlap: Double, changed: Double, to path: String) throws {
        throw RunError.refused(.refreshNotGenerated(scenario: name))
    }
}
