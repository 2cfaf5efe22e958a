import ImportBenchPayload
import ImportBenchSchema

/// A product catalogue keyed by a serial code: a flat top-level array upserted by a unique
/// attribute, the shape of most "sync the catalogue" endpoints.
package struct ProductsScenario: Scenario {
    package let name = "products"
    package let summary = "serial-coded product catalogue: a flat array upserted by a unique attribute"
    package let schema: Schema
    /// One category's 50 cheapest active products, as a catalogue screen lists them.
    package let screenQuery = """
        SELECT "serialCode", "name", "brand", "price", "currency" FROM "product" \
        WHERE "category" = (SELECT "category" FROM "product" ORDER BY "pk" LIMIT 1) AND "active" ORDER BY "price" LIMIT 50
        """

    /// Products at scale 1.
    package static let baseProducts = 10_000

    package init() {
        do {
            schema = try Schema(name: "products", entities: [ProductsPayloadReader.product])
        } catch {
            fatalError("products schema is invalid: \(error)")
        }
    }

    package func generate(scale: Double, seed: UInt64, to path: String) throws {
        try ProductsPayloadGenerator(scale: scale, seed: seed).write(to: path)
    }

    package func generatePreload(scale: Double, seed: UInt64, overlap: Double, changed: Double, to path: String) throws {
        try ProductsPayloadGenerator(scale: scale, seed: seed).preload(overlap: overlap, changed: changed).write(to: path)
    }

    package func openReader(path: String, reading: PayloadReading) throws -> any RecordReader {
        try ProductsPayloadReader(path: path, schema: schema, reading: reading)
    }
}
