import ImportBenchStore

/// One unit per product of a top-level array. `serialCode` is required; every other field may be
/// missing or null; unknown fields are ignored. With `onError: .skip` a product that cannot be read
/// is left out and counted as a "malformed product".
public final class ProductsPayloadReader: RecordReader {
    public let path: String
    private var records: JSONRecordStream
    private let entity: Int
    private let attributes: [Attribute]

    public init(path: String, schema: Schema, reading: PayloadReading = PayloadReading(), chunkSize: Int = 1 << 20) throws {
        self.path = path
        guard let entity = schema.index(of: ProductsScenario.product.name), schema.entities[entity] == ProductsScenario.product else {
            throw PayloadError(file: path, byteOffset: nil, path: nil, expected: "the products schema", found: "schema '\(schema.name)'")
        }
        self.entity = entity
        attributes = ProductsScenario.product.attributes
        let elements = try JSONArrayElementReader(
            path: path, arrayPath: [], chunkSize: chunkSize, limits: reading.limits, hasher: reading.hasher)
        records = JSONRecordStream(elements: elements, recordName: "product", onError: reading.onError)
    }

    public func nextUnit() throws -> RecordUnit? {
        try records.nextUnit { try unit(of: $0) }
    }

    /// The import's path: values go from the tape straight into the builder.
    public func readUnit(into builder: RecordBuilder) throws -> Bool {
        try records.readUnit(into: builder) { tape in
            let product = try tape.root.object()
            let key = try product.required("serialCode")
            builder.begin(entity: entity)
            try key.withString { builder.key(text: $0) }
            for attribute in attributes { try product.write(attribute.name, to: builder, as: attribute.type) }
            builder.finish()
        }
    }

    public var skippedRecords: [String: Int] { records.errors.skippedRecords }
    public var skippedErrors: [PayloadError] { records.errors.skippedErrors }

    private func unit(of tape: JSONTape) throws -> RecordUnit {
        let product = try tape.root.object()
        let key = DatabaseValue.text(try product.required("serialCode").string())
        var values: [DatabaseValue] = []
        values.reserveCapacity(attributes.count)
        for attribute in attributes { values.append(try product.databaseValue(attribute.name, as: attribute.type)) }
        return RecordUnit(
            occurrences: [RecordOccurrence(entity: entity, key: key, attributes: values)], path: tape.recordPath,
            byteOffset: tape.baseOffset)
    }
}
