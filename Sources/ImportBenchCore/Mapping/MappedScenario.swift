import Foundation

/// A scenario a mapping file describes: its schema and reader come from the file. It has no
/// generator of its own: its payloads are the user's (`--payload`).
public struct MappedScenario: Scenario {
    public let mapping: PayloadMapping
    /// The mapping file, as given to `load`: how a run names this scenario.
    public let file: String

    public init(mapping: PayloadMapping, file: String) {
        self.mapping = mapping
        self.file = file
    }

    public static func load(path: String) throws(MappingError) -> MappedScenario {
        MappedScenario(mapping: try PayloadMapping.load(path: path), file: path)
    }

    public var name: String { mapping.name }
    public var summary: String { mapping.summary }
    public var schema: Schema { mapping.schema }
    public var reference: ScenarioReference { .mapping(file) }

    /// The mapping's own query, else the newest rows of the element entity.
    public var screenQuery: String {
        mapping.screenQuery ?? "SELECT * FROM \(quoted(schema.entities[mapping.rootEntity].name)) ORDER BY pk DESC LIMIT 50"
    }

    public func generate(scale: Double, seed: UInt64, to path: String) throws {
        throw ScenarioError.notGenerated(scenario: name, mapping: file)
    }

    public func openReader(path: String, reading: PayloadReading) throws -> any RecordReader {
        try MappedPayloadReader(path: path, mapping: mapping, reading: reading)
    }
}
