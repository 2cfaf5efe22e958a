import Foundation
import ImportBenchPayload
import ImportBenchSchema

/// A scenario a mapping file describes: its schema and reader come from the file. Its payloads are
/// the user's: a file given as it is (`--payload`), or a sample scaled to any size (`--from`), which
/// is then its generator.
package struct MappedScenario: Scenario {
    package let mapping: PayloadMapping
    /// The mapping file, as given to `load`: how a run names this scenario.
    package let file: String
    /// The recorded payload that `generate` scales.
    package let sample: String?

    /// A JSON Lines sample (by its name) makes JSON Lines payloads, whatever the names they are
    /// written under (a run's generated payload has none): the mapping reads them so.
    package init(mapping: PayloadMapping, file: String, sample: String? = nil) {
        var mapping = mapping
        if let sample, JSONElements.isJSONLines(sample) { mapping.jsonLines = true }
        self.mapping = mapping
        self.file = file
        self.sample = sample
    }

    package static func load(path: String, sample: String? = nil) throws(MappingError) -> MappedScenario {
        MappedScenario(mapping: try PayloadMapping.load(path: path), file: path, sample: sample)
    }

    package var name: String { mapping.name }
    package var summary: String { mapping.summary }
    package var schema: Schema { mapping.schema }
    package var source: ScenarioSource { .mapping(file, sample: sample) }

    /// The mapping's own query, else the newest rows of the element entity.
    package var screenQuery: String {
        mapping.screenQuery ?? "SELECT * FROM \(quoted(schema.entities[mapping.rootEntity].name)) ORDER BY pk DESC LIMIT 50"
    }

    /// The sample, `scale` times over (`SampleScaler`); `seed` plays no part, the copies are the user's data.
    package func generate(scale: Double, seed: UInt64, to path: String) throws {
        guard let sample else { throw RunError.refused(.notGenerated(scenario: name, mapping: file)) }
        try PayloadPath.check(sample)
        let scaler: SampleScaler
        do {
            scaler = try SampleScaler(mapping: mapping, sample: sample)
        } catch {
            // What the scaler refuses is the mapping's doing: name it.
            throw MappingError(file: file, problem: error.problem)
        }
        try scaler.write(scale: scale, to: path, stopIfAsked: ImportInterruption.throwIfRequested)
    }

    package func openReader(path: String, reading: PayloadReading) throws -> any RecordReader {
        try MappedPayloadReader(path: path, mapping: mapping, reading: reading)
    }
}
