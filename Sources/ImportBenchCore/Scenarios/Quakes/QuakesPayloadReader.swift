import ImportBenchStore

/// Turns a USGS GeoJSON feed into one unit per feature, streaming the `features` array.
/// `id` is the natural key; where a mirror drops it (absent or null), the key is made as USGS makes
/// the id, of `properties.net` and `properties.code`. Every property may be missing or null, as real feeds
/// leave `felt`, `cdi`, `mmi`, `alert`, `tsunami`, `nst`, `dmin` and `gap` empty for most events.
/// Numbers are accepted as integers or decimals wherever the column is REAL (`"mag": 2` and `1.7`).
/// With `onError: .skip` a feature that cannot be read is left out and counted as a "malformed feature".
public final class QuakesPayloadReader: RecordReader {
    public let path: String
    private var records: JSONRecordStream
    private let entity: Int
    private let properties: [Attribute]

    public init(path: String, schema: Schema, reading: PayloadReading = PayloadReading(), chunkSize: Int = 1 << 20) throws {
        self.path = path
        guard let entity = schema.index(of: QuakesScenario.feature.name), schema.entities[entity] == QuakesScenario.feature else {
            throw PayloadError(file: path, byteOffset: nil, path: nil, expected: "the quakes schema", found: "schema '\(schema.name)'")
        }
        self.entity = entity
        properties = Array(QuakesScenario.propertyAttributes)
        let elements = try JSONArrayElementReader(
            path: path, arrayPath: ["features"], chunkSize: chunkSize, limits: reading.limits, hasher: reading.hasher)
        records = JSONRecordStream(elements: elements, recordName: "feature", onError: reading.onError)
    }

    public func nextUnit() throws -> RecordUnit? {
        try records.nextUnit { try unit(of: $0) }
    }

    /// The import's path: the same values as `nextUnit`'s, from the tape straight into the builder.
    public func readUnit(into builder: RecordBuilder) throws -> Bool {
        try records.readUnit(into: builder) { tape in
            let feature = try tape.root.object()
            builder.begin(entity: entity)
            if let id = try feature.optional("id") {
                if id.kind == .number {
                    builder.key(.text(String(try id.int64())))
                } else {
                    try id.withString { builder.key(text: $0) }
                }
            } else {
                builder.key(try Self.keyWithoutID(feature))
            }
            if let object = try feature["properties"], !object.isNull {
                let properties = try object.object()
                for attribute in self.properties { try properties.write(attribute.name, to: builder, as: attribute.type) }
            } else {
                for _ in properties { builder.null() }
            }
            for coordinate in try coordinates(of: feature) { builder.value(coordinate) }
            builder.finish()
        }
    }

    public var skippedRecords: [String: Int] { records.errors.skippedRecords }
    public var skippedErrors: [PayloadError] { records.errors.skippedErrors }

    private func unit(of tape: JSONTape) throws -> RecordUnit {
        let feature = try tape.root.object()
        let key: DatabaseValue
        if let id = try feature.optional("id") {
            key = id.kind == .number ? .text(String(try id.int64())) : .text(try id.string())
        } else {
            key = try Self.keyWithoutID(feature)
        }

        var attributes: [DatabaseValue] = []
        attributes.reserveCapacity(properties.count + 3)
        if let object = try feature["properties"], !object.isNull {
            let properties = try object.object()
            for attribute in self.properties { attributes.append(try properties.databaseValue(attribute.name, as: attribute.type)) }
        } else {
            attributes += Array(repeating: .null, count: properties.count)
        }
        attributes += try coordinates(of: feature)

        let occurrence = RecordOccurrence(entity: entity, key: key, attributes: attributes)
        return RecordUnit(occurrences: [occurrence], path: tape.recordPath, byteOffset: tape.baseOffset)
    }

    /// The key of a feature whose `id` a mirror dropped: USGS makes the id of the network and the
    /// network's code (`nc` + `72199065`), so the same earthquake keeps one key from either source.
    /// A part given as a number is its decimal text, as the mapping's composition writes it. Without
    /// them the error names the missing `id`, the member a feed is expected to have.
    static func keyWithoutID(_ feature: JSONObject) throws -> DatabaseValue {
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

    /// Longitude, latitude and depth of a Point; NULLs when the geometry is absent.
    private func coordinates(of feature: JSONObject) throws -> [DatabaseValue] {
        guard let geometry = try feature["geometry"], !geometry.isNull,
            let coordinates = try geometry.object()["coordinates"], !coordinates.isNull
        else { return [.null, .null, .null] }
        var values: [DatabaseValue] = []
        for value in try coordinates.array() where values.count < 3 {
            values.append(try value.databaseValue(as: .real))
        }
        while values.count < 3 { values.append(.null) }
        return values
    }
}
