import Foundation
import ImportBenchCore

/// A mapping and a payload written into a fresh directory, for tests of what a mapping reads.
struct MappedPayloadFixture {
    let directory: TemporaryDirectory
    let mappingPath: String
    let payloadPath: String

    init(mapping: String, payload: String, payloadName: String = "payload.json") throws {
        directory = try TemporaryDirectory()
        mappingPath = directory.path("mapping.yml")
        try mapping.write(toFile: mappingPath, atomically: true, encoding: .utf8)
        payloadPath = directory.path(payloadName)
        try payload.write(toFile: payloadPath, atomically: true, encoding: .utf8)
    }

    /// The mapping, loaded as `bench run --mapping` loads it.
    var scenario: MappedScenario {
        get throws { try MappedScenario.load(path: mappingPath) }
    }
}
