/// Writes a catalogue (`[{"serialCode": ..., ...}]`) product by product; each product depends only
/// on (seed, index), so overlapping ranges of indexes describe the same products.
public struct ProductsPayloadGenerator: Sendable {
    public let scale: Double
    public let seed: UInt64
    public let productCount: Int
    public let firstIndex: Int
    /// Bumped for a later revision of the same products: prices, stock and timestamps change.
    public let revision: Int

    static let brands = ["Acme", "Globex", "Initech", "Umbrella", "Stark", "Wayne", "Hooli", "Vandelay"]
    static let categories = ["tools", "garden", "kitchen", "audio", "toys", "books", "sports", "office"]
    static let nouns = ["drill", "kettle", "speaker", "lamp", "racket", "notebook", "hose", "blender", "puzzle", "chair"]

    public init(scale: Double, seed: UInt64, firstIndex: Int = 0, revision: Int = 0) {
        self.scale = scale
        self.seed = seed
        self.productCount = max(1, Int((Double(ProductsScenario.baseProducts) * scale).rounded()))
        self.firstIndex = firstIndex
        self.revision = revision
    }

    public func write(to path: String) throws {
        guard scale.isFinite, scale > 0 else {
            throw PayloadError(file: path, byteOffset: nil, path: nil, expected: "a finite scale greater than 0", found: "\(scale)")
        }
        let writer = try JSONTextWriter(path: path)
        writer.beginArray()
        for index in firstIndex..<(firstIndex + productCount) {
            var random = SeededRandom(seed: SeededRandom.subSeed(seed, stream: 30, index: UInt64(index)))
            var revised = SeededRandom(seed: SeededRandom.subSeed(seed, stream: 31 + UInt64(revision), index: UInt64(index)))
            let brand = random.pick(Self.brands)
            let noun = random.pick(Self.nouns)
            writer.beginObject()
            // Serial codes are a bijection of the index: unique at any scale.
            writer.field("serialCode", "SN-\(String(100_000_000 + (index &* 104_729) % 899_999_999))")
            writer.field("name", "\(brand) \(noun) \(random.nextInt(in: 100...999))")
            writer.field("brand", brand)
            writer.field("category", random.pick(Self.categories))
            writer.key("price")
            writer.decimal(random.nextInt(in: 199...99_999) + (revision > 0 && revised.chance(0.4) ? revised.nextInt(in: -100...100) : 0), fractionDigits: 2)
            writer.field("currency", "EUR")
            writer.field("stock", revision > 0 ? revised.nextInt(in: 0...500) : random.nextInt(in: 0...500))
            writer.field("active", !random.chance(0.05))
            writer.field("updatedAt", "2024-0\(1 + min(revision, 8))-\(String(10 + random.nextInt(below: 18)))T12:00:00Z")
            writer.key("description")
            if random.chance(0.2) { writer.null() } else { writer.string("A \(noun) by \(brand), \"model \(random.nextInt(in: 1...9))\".") }
            writer.endObject()
        }
        writer.endArray()
        try writer.close()
    }
}
