import ImportBenchPayload

/// Writes a USGS-shaped feed (`{"type":"FeatureCollection","metadata":{...},"features":[...]}`),
/// newest event first, one feature at a time. Each feature depends only on (seed, index), so a
/// window of indexes is the same events in any feed that contains them.
package struct QuakesPayloadGenerator: Sendable {
    package let scale: Double
    package let seed: UInt64
    package let featureCount: Int
    /// Index of the newest feature; a later feed starts at a lower index, an earlier one at a higher.
    package let firstIndex: Int
    /// Bumped for another revision of the same events: updated time, status and magnitude change...
    package let revision: Int
    /// ...for this share of them, chosen per event independently of the revision.
    package let changedShare: Double

    static let networks = ["ak", "ci", "nc", "us", "uw", "nn", "hv", "pr", "mb", "uu"]
    static let regions = ["California", "Alaska", "Nevada", "Hawaii", "Puerto Rico", "Montana", "Utah", "Washington", "Japan", "Chile"]
    static let directions = ["N", "NNE", "NE", "E", "SE", "S", "SW", "W", "NW", "WNW"]
    static let magnitudeTypes = ["ml", "md", "mb", "Mw", "mb_lg"]
    /// 2014-04-15T00:00:00Z in milliseconds, the day of the recorded sample feeds.
    static let feedEpochMilliseconds = 1_397_520_000_000

    package init(scale: Double, seed: UInt64, firstIndex: Int = 0, revision: Int = 0, changedShare: Double = 1) {
        self.scale = scale
        self.seed = seed
        self.featureCount = max(1, Int((Double(QuakesScenario.baseFeatures) * scale).rounded()))
        self.firstIndex = firstIndex
        self.revision = revision
        self.changedShare = changedShare
    }

    /// An earlier feed for a refresh: `overlap` of this feed's events, `changed` of those revised.
    package func preload(overlap: Double, changed: Double) -> QuakesPayloadGenerator {
        let shared = Int((Double(featureCount) * overlap).rounded())
        return QuakesPayloadGenerator(
            scale: scale, seed: seed, firstIndex: firstIndex + featureCount - shared, revision: revision + 1, changedShare: changed)
    }

    package func write(to path: String) throws {
        guard scale.isFinite, scale > 0 else {
            throw PayloadError(file: path, byteOffset: nil, path: nil, expected: .positiveScale, found: "\(scale)")
        }
        let writer = try JSONTextWriter(path: path, elements: QuakesPayloadReader.elements)
        writer.beginObject()
        writer.field("type", "FeatureCollection")
        writer.key("metadata")
        writer.beginObject()
        writer.field("generated", Self.feedEpochMilliseconds + 3_600_000 * revision)
        writer.field("url", "https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/all_week.geojson")
        writer.field("title", "USGS All Earthquakes, generated")
        writer.field("status", 200)
        writer.field("api", "1.0.13")
        writer.field("count", featureCount)
        writer.endObject()
        writer.key("features")
        writer.beginArray()
        for index in firstIndex..<(firstIndex + featureCount) {
            if index % 1024 == 0 { try ImportInterruption.throwIfRequested() }
            writeFeature(index, to: writer)
        }
        writer.endArray()
        writer.key("bbox")
        writer.beginArray()
        for (units, digits) in [(-1_799_999, 4), (-600_000, 4), (-300, 2), (1_799_999, 4), (700_000, 4), (60_000, 2)] {
            writer.decimal(units, fractionDigits: digits)
        }
        writer.endArray()
        writer.endObject()
        try writer.close()
    }

    private func writeFeature(_ index: Int, to writer: JSONTextWriter) {
        var random = SeededRandom(seed: SeededRandom.subSeed(seed, stream: 20, index: UInt64(index)))
        let applied = revision > 0 && Self.isRevised(index, seed: seed, stream: 29, share: changedShare) ? revision : 0
        var revised = SeededRandom(seed: SeededRandom.subSeed(seed, stream: 21 + UInt64(applied), index: UInt64(index)))
        let network = random.pick(Self.networks)
        // A bijection of the index (7919 is prime to the modulus), so ids never collide at any scale.
        let code = String(10_000_000 + (index &* 7_919) % 89_999_999)
        let id = network + code
        // Newest first: a higher index is an older event, about a minute apart.
        let time = Self.feedEpochMilliseconds - index * 60_000 - random.nextInt(below: 59_000)
        // A revised event is always updated an hour later per revision, so it differs from every other revision.
        let updated = time + 60_000 + applied * 3_600_000 + revised.nextInt(below: 600_000)
        let magnitudeTenths = max(0, random.nextInt(in: 2...45) + (applied > 0 && revised.chance(0.3) ? revised.nextInt(in: -2...2) : 0))
        let place =
            "\(random.nextInt(in: 1...120))km \(random.pick(Self.directions)) of \(random.pick(Self.regions)) Town, \(random.pick(Self.regions))"
        let felt = random.chance(0.1) ? random.nextInt(in: 1...500) : nil
        let reviewed = random.chance(0.3) || (applied > 0 && revised.chance(0.5))

        writer.beginObject()
        writer.field("type", "Feature")
        writer.key("properties")
        writer.beginObject()
        writer.key("mag")
        // Whole magnitudes print without a fraction, as the real feed does.
        if magnitudeTenths % 10 == 0 { writer.integer(magnitudeTenths / 10) } else { writer.decimal(magnitudeTenths, fractionDigits: 1) }
        writer.field("place", place)
        writer.field("time", time)
        writer.field("updated", updated)
        writer.field("tz", random.nextInt(in: -12...12) * 60)
        writer.field("url", "https://earthquake.usgs.gov/earthquakes/eventpage/\(id)")
        writer.field("detail", "https://earthquake.usgs.gov/earthquakes/feed/v1.0/detail/\(id).geojson")
        writer.key("felt")
        if let felt { writer.integer(felt) } else { writer.null() }
        writer.key("cdi")
        if felt != nil { writer.decimal(random.nextInt(in: 10...60), fractionDigits: 1) } else { writer.null() }
        writer.key("mmi")
        if random.chance(0.05) { writer.decimal(random.nextInt(in: 100...700), fractionDigits: 2) } else { writer.null() }
        writer.key("alert")
        if magnitudeTenths > 40 { writer.string("green") } else { writer.null() }
        writer.field("status", reviewed ? "reviewed" : "automatic")
        writer.key("tsunami")
        if random.chance(0.2) { writer.integer(random.chance(0.05) ? 1 : 0) } else { writer.null() }
        writer.field("sig", magnitudeTenths * magnitudeTenths / 4)
        writer.field("net", network)
        writer.field("code", code)
        writer.field("ids", ",\(id),")
        writer.field("sources", ",\(network),")
        writer.field("types", ",general-link,geoserve,nearby-cities,origin,phase-data,")
        writer.key("nst")
        if random.chance(0.3) { writer.integer(random.nextInt(in: 3...120)) } else { writer.null() }
        writer.key("dmin")
        if random.chance(0.7) { writer.decimal(random.nextInt(in: 1...500_000), fractionDigits: 5) } else { writer.null() }
        writer.key("rms")
        writer.decimal(random.nextInt(in: 0...150), fractionDigits: 2)
        writer.key("gap")
        if random.chance(0.7) { writer.decimal(random.nextInt(in: 100...3_500), fractionDigits: 1) } else { writer.null() }
        writer.field("magType", random.pick(Self.magnitudeTypes))
        writer.field("type", random.chance(0.97) ? "earthquake" : "quarry blast")
        let magnitudeText = magnitudeTenths % 10 == 0 ? "\(magnitudeTenths / 10)" : "\(magnitudeTenths / 10).\(magnitudeTenths % 10)"
        writer.field("title", "M \(magnitudeText) - \(place)")
        writer.endObject()
        writer.key("geometry")
        writer.beginObject()
        writer.field("type", "Point")
        writer.key("coordinates")
        writer.beginArray()
        writer.decimal(random.nextInt(in: -1_799_999...1_799_999), fractionDigits: 4)
        writer.decimal(random.nextInt(in: -600_000...700_000), fractionDigits: 4)
        writer.decimal(random.nextInt(in: -300...60_000), fractionDigits: 2)
        writer.endArray()
        writer.endObject()
        writer.field("id", id)
        writer.endObject()
    }

    /// Whether an object takes part in a revision: drawn from its own stream, so the same objects
    /// change whichever revision is written.
    static func isRevised(_ index: Int, seed: UInt64, stream: UInt64, share: Double) -> Bool {
        var random = SeededRandom(seed: SeededRandom.subSeed(seed, stream: stream, index: UInt64(index)))
        return random.chance(share)
    }
}
