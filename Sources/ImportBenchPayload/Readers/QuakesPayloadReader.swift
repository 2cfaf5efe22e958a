import ImportBenchSchema
import ImportBenchStore

/// Turns a USGS GeoJSON feed into one unit per feature, streaming the `features` array.
/// `id` is the natural key; where a mirror drops it (absent or null), the key is made as USGS makes
/// the id, of `properties.net` and `properties.code`. Every property may be missing or null, as real feeds
/// leave `felt`, `cdi`, `mmi`, `alert`, `tsunami`, `nst`, `dmin` and `gap` empty for most events.
/// Numbers are accepted as integers or decimals wherever the column is REAL (`"mag": 2` and `1.7`).
/// With `onError: .skip` a feature that cannot be read is left out and counted as a "malformed feature".
package final class QuakesPayloadReader: RecordReader, JSONElementDecoder {
    /// The member names leading to the array of elements (the generator writes them there, or one
    /// per line for JSON Lines).
    package static let elements: [String] = ["features"]

    package let path: String
    /// Read and advanced once per unit, by this reader's own methods one at a time: unchecked, as the
    /// runtime exclusivity check of a class's stored `var` cost a check per element.
    @exclusivity(unchecked) private var records: JSONRecordStream
    private let entity: Int
    /// The properties read, each found in one pass over a feature's `properties` (26 lookups by
    /// name cost a third of the decoding), with their column types in the same order.
    private static let propertyMembers = JSONMemberSet(QuakesPayloadReader.propertyAttributes.map(\.name))
    private let propertySlots = JSONMemberSlots(for: QuakesPayloadReader.propertyMembers)
    private let propertyTypes: [ColumnType]

    package init(path: String, schema: Schema, reading: PayloadReading = PayloadReading(), chunkSize: Int = 1 << 20) throws {
        self.path = path
        guard let entity = schema.index(of: QuakesPayloadReader.feature.name), schema.entities[entity] == QuakesPayloadReader.feature else {
            throw PayloadError(file: path, byteOffset: nil, path: nil, expected: .scenarioSchema("quakes"), found: "schema '\(schema.name)'")
        }
        self.entity = entity
        propertyTypes = QuakesPayloadReader.propertyAttributes.map(\.type)
        let elements = try JSONElements.open(
            path: path, arrayPath: Self.elements, chunkSize: chunkSize, limits: reading.limits, hasher: reading.hasher)
        records = JSONRecordStream(elements: elements, recordName: "feature", onError: reading.onError)
    }

    package func nextUnit() throws -> RecordUnit? {
        try records.nextUnit { try unit(of: $0) }
    }

    /// The import's path: the same values as `nextUnit`'s, from the tape straight into the builder,
    /// by token index (`JSONTape+Indexes`: no value type retaining the tape per member).
    package func readUnit(into builder: RecordBuilder) throws -> Bool {
        try records.readUnit(into: builder, by: self)
    }

    func decodeElement(_ tape: JSONTape, into builder: RecordBuilder) throws {
        let feature = try tape.object(at: 0)
        builder.begin(entity: entity)
        if let id = try tape.optionalMember("id", inObject: feature) {
            if tape.tokens[id].kind == .number {
                builder.key(decimal: Int(try tape.int64(at: id)))
            } else {
                try tape.withStringBytes(at: id) { builder.key(text: $0) }
            }
        } else {
            builder.key(try Self.keyWithoutID(JSONValue(tape: tape, index: feature).object()))
        }
        if let found = try propertyIndexes(of: feature, in: tape) {
            for (position, type) in propertyTypes.enumerated() {
                let index = found[position]
                if index < 0 { builder.absent() } else { try tape.write(valueAt: index, to: builder, as: type) }
            }
        } else {
            // Without properties (absent or null) every property is left out: a refresh keeps them.
            for _ in propertyTypes { builder.absent() }
        }
        var written = 0
        if let coordinates = try coordinates(of: feature, in: tape) {
            for value in coordinates where written < 3 {
                try tape.write(valueAt: value, to: builder, as: .real)
                written += 1
            }
        }
        for _ in written..<3 { builder.null() }
        builder.finish()
    }

    package var skippedRecords: [String: Int] { records.errors.skippedRecords }
    package var skippedErrors: [PayloadError] { records.errors.skippedErrors }

    private func unit(of tape: JSONTape) throws -> RecordUnit {
        let feature = try tape.root.object()
        let key: StoreValue
        if let id = try feature.optional("id") {
            key = id.kind == .number ? .text(String(try id.int64())) : .text(try id.string())
        } else {
            key = try Self.keyWithoutID(feature)
        }

        var attributes: [StoreValue] = []
        var absent = ColumnSet()
        attributes.reserveCapacity(propertyTypes.count + 3)
        if let found = try propertyIndexes(of: feature.value.index, in: tape) {
            for (position, type) in propertyTypes.enumerated() {
                let index = found[position]
                if index < 0 { absent.insert(position) }
                attributes.append(index < 0 ? .null : try JSONValue(tape: tape, index: index).storeValue(as: type))
            }
        } else {
            absent = ColumnSet(0..<propertyTypes.count)
            attributes += Array(repeating: .null, count: propertyTypes.count)
        }
        if let coordinates = try coordinates(of: feature.value.index, in: tape) {
            for value in coordinates where attributes.count < propertyTypes.count + 3 {
                attributes.append(try JSONValue(tape: tape, index: value).storeValue(as: .real))
            }
        }
        while attributes.count < propertyTypes.count + 3 { attributes.append(.null) }

        var occurrence = RecordOccurrence(entity: entity, key: key, attributes: attributes)
        occurrence.absent = absent
        return RecordUnit(occurrences: [occurrence], path: tape.recordPath, byteOffset: tape.baseOffset)
    }

    /// The key of a feature whose `id` a mirror dropped: USGS makes the id of the network and the
    /// network's code (`nc` + `72199065`), so the same earthquake keeps one key from either source.
    /// A part given as a number is its decimal text, as the mapping's composition writes it. Without
    /// them the error names the missing `id`, the member a feed is expected to have.
    static func keyWithoutID(_ feature: JSONObject) throws -> StoreValue {
        func part(_ value: JSONValue?) throws -> String? {
            guard let value else { return nil }
            return value.kind == .number ? String(try value.int64()) : try value.string()
        }
        guard let properties = try feature.optional("properties")?.object(),
            let net = try part(properties.optional("net")), let code = try part(properties.optional("code"))
        else {
            // Throws: the id is absent or null, or this function would not have been called.
            return .text(try feature.required("id").string())
        }
        return .text(net + code)
    }

    /// Where each property's value is (-1 when absent), or nil when the feature has no properties.
    private func propertyIndexes(of feature: Int, in tape: JSONTape) throws -> UnsafeMutableBufferPointer<Int>? {
        guard let properties = try tape.optionalMember("properties", inObject: feature) else { return nil }
        try tape.find(Self.propertyMembers.table, inObject: tape.object(at: properties), into: propertySlots.values)
        return propertySlots.values
    }

    /// A Point's coordinates, of which the first three are longitude, latitude and depth (NULLs
    /// where missing); nil when the geometry is absent.
    private func coordinates(of feature: Int, in tape: JSONTape) throws -> JSONElementIndexes? {
        guard let geometry = try tape.optionalMember("geometry", inObject: feature),
            let coordinates = try tape.optionalMember("coordinates", inObject: tape.object(at: geometry))
        else { return nil }
        return try tape.elements(ofArray: coordinates)
    }
}

/// What this reader reads, declared here so that the scenario's schema and the reader agree.
extension QuakesPayloadReader {
    /// The feature's `properties` in feed order, then the point's coordinates.
    package static let feature = Entity(
        "feature", key: Attribute("id", .text),
        attributes: [
            Attribute("mag", .real), Attribute("place", .text), Attribute("time", .integer), Attribute("updated", .integer),
            Attribute("tz", .integer), Attribute("url", .text), Attribute("detail", .text), Attribute("felt", .integer),
            Attribute("cdi", .real), Attribute("mmi", .real), Attribute("alert", .text), Attribute("status", .text),
            Attribute("tsunami", .integer), Attribute("sig", .integer), Attribute("net", .text), Attribute("code", .text),
            Attribute("ids", .text), Attribute("sources", .text), Attribute("types", .text), Attribute("nst", .integer),
            Attribute("dmin", .real), Attribute("rms", .real), Attribute("gap", .real), Attribute("magType", .text),
            Attribute("type", .text), Attribute("title", .text),
            Attribute("longitude", .real), Attribute("latitude", .real), Attribute("depth", .real),
        ])

    /// The attributes read from `properties`: all but the last three, which come from `geometry.coordinates`.
    package static var propertyAttributes: ArraySlice<Attribute> { feature.attributes.dropLast(3) }
}
