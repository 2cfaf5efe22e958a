import ImportBenchPayload
import ImportBenchSchema

/// A USGS GeoJSON summary feed: one flat entity, refreshed every few minutes with a feed that
/// overlaps what is stored. The case where the update path, not the insert path, dominates.
package struct QuakesScenario: Scenario {
    package let name = "quakes"
    package let summary = "USGS GeoJSON earthquake feed: one flat entity, refreshes that overlap the stored feed"
    package let schema: Schema
    /// The 100 most recent earthquakes.
    package let screenQuery = """
        SELECT "id", "mag", "place", "time", "longitude", "latitude" FROM "feature" ORDER BY "time" DESC LIMIT 100
        """

    /// Features at scale 1.
    package static let baseFeatures = 10_000

    package init() {
        do {
            schema = try Schema(name: "quakes", entities: [QuakesPayloadReader.feature])
        } catch {
            fatalError("quakes schema is invalid: \(error)")
        }
    }

    package func generate(scale: Double, seed: UInt64, to path: String) throws {
        try QuakesPayloadGenerator(scale: scale, seed: seed).write(to: path)
    }

    package func generatePreload(scale: Double, seed: UInt64, overlap: Double, changed: Double, to path: String) throws {
        try QuakesPayloadGenerator(scale: scale, seed: seed).preload(overlap: overlap, changed: changed).write(to: path)
    }

    package func openReader(path: String, reading: PayloadReading) throws -> any RecordReader {
        try QuakesPayloadReader(path: path, schema: schema, reading: reading)
    }
}
