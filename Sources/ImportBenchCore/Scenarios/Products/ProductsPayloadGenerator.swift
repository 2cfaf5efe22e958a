import ImportBenchPayload

/// Writes a catalogue (`[{"serialCode": ..., ...}]`) product by product; each product depends only
/// on (seed, index), so overlapping ranges of indexes describe the same products.
package struct ProductsPayloadGenerator: Sendable {
    package let scale: Double
    package let seed: UInt64
    package let productCount: Int
    package let firstIndex: Int
    /// Bumped for another revision of the same products: prices, stock and timestamps change...
    package let revision: Int
    /// ...for this share of them, chosen per product independently of the revision.
    package let changedShare: Double

    static let brands = ["Acme", "Globex", "Initech", "Umbrella", "Stark", "Wayne", "Hooli", "Vandelay"]
    static let categories = ["tools", "garden", "kitchen", "audio", "toys", "books", "sports", "office"]
    static let nouns = ["drill", "kettle", "speaker", "lamp", "racket", "notebook", "hose", "blender", "puzzle", "chair"]

    package init(scale: Double, seed: UInt64, firstIndex: Int = 0, revision: Int = 0, changedShare: Double = 1) {
        self.scale = scale
        self.seed = seed
        self.productCount = max(1, Int((Double(ProductsScenario.baseProducts) * scale).rounded()))
        self.firstIndex = firstIndex
        self.revision = revision
        self.changedShare = changedShare
    }

    /// An earlier catalogue for a refresh: `overlap` of this one's products, `changed` of those revised.
    package func preload(overlap: Double, changed: Double) -> ProductsPayloadGenerator {
        let shared = Int((Double(productCount) * overlap).rounded())
        return ProductsPayloadGenerator(
            scale: scale, seed: seed, firstIndex: firstIndex + productCount - shared, revision: revision + 1, changedShare: changed)
    }

    package func write(to path: String) throws {
        guard scale.isFinite, scale > 0 else {
            throw PayloadError(file: path, byteOffset: nil, path: nil, expected: .positiveScale, found: "\(scale)")
        }
        let writer = try JSONTextWriter(path: path, elements: ProductsPayloadReader.elements)
        writer.beginArray()
        for index in firstIndex..<(firstIndex + productCount) {
            if index % 1024 == 0 { try ImportInterruption.throwIfRequested() }
            var random = SeededRandom(seed: SeededRandom.subSeed(seed, stream: 30, index: UInt64(index)))
            let applied = revision > 0 && Self.isRevised(index, seed: seed, stream: 39, share: changedShare) ? revision : 0
            var revised = SeededRandom(seed: SeededRandom.subSeed(seed, stream: 31 + UInt64(applied), index: UInt64(index)))
            let brand = random.pick(Self.brands)
            let noun = random.pick(Self.nouns)
            writer.beginObject()
            // Serial codes are a bijection of the index: unique at any scale.
            writer.field("serialCode", "SN-\(String(100_000_000 + (index &* 104_729) % 899_999_999))")
            writer.field("name", "\(brand) \(noun) \(random.nextInt(in: 100...999))")
            writer.field("brand", brand)
            writer.field("category", random.pick(Self.categories))
            writer.key("price")
            writer.decimal(
                random.nextInt(in: 199...99_999) + (applied > 0 && revised.chance(0.4) ? revised.nextInt(in: -100...100) : 0), fractionDigits: 2)
            writer.field("currency", "EUR")
            let stock = random.nextInt(in: 0...500)
            writer.field("stock", applied > 0 ? revised.nextInt(in: 0...500) : stock)
            writer.field("active", !random.chance(0.05))
            // A revised product always carries a later timestamp, so it differs from every other revision.
            writer.field("updatedAt", "\(2024 + applied)-01-\(String(10 + random.nextInt(below: 18)))T12:00:00Z")
            writer.key("description")
            if random.chance(0.2) { writer.null() } else { writer.string("A \(noun) by \(brand), \"model \(random.nextInt(in: 1...9))\".") }
            writer.endObject()
        }
        writer.endArray()
        try writer.close()
    }

    /// Whether an object takes part in a revision: drawn from its own stream, so the same objects
    /// change whichever revision is written.
    static func isRevised(_ index: Int, seed: UInt64, stream: UInt64, share: Double) -> Bool {
        var random = SeededRandom(seed: SeededRandom.subSeed(seed, stream: stream, index: UInt64(index)))
        return random.chance(share)
    }
}
