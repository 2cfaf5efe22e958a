import ImportBenchSchema
import ImportBenchStore

/// One unit per product of a top-level array. `serialCode` is required; every other field may be
/// missing or null; unknown fields are ignored. With `onError: .skip` a product that cannot be read
/// is left out and counted as a "malformed product".
package final class ProductsPayloadReader: RecordReader, JSONElementDecoder {
    /// The member names leading to the array of elements (the generator writes them there, or one
    /// per line for JSON Lines).
    package static let elements: [String] = []

    package let path: String
    /// Read and advanced once per unit, by this reader's own methods one at a time: unchecked, as the
    /// runtime exclusivity check of a class's stored `var` cost a check per element.
    @exclusivity(unchecked) private var records: JSONRecordStream
    private let entity: Int
    /// The key, then the attributes, found in one pass over a product (ten lookups by name cost
    /// a quarter of the decoding, most of it retain and release per lookup).
    private static let members = JSONMemberSet(
        [ProductsPayloadReader.product.key.name] + ProductsPayloadReader.product.attributes.map(\.name))
    private let slots = JSONMemberSlots(for: ProductsPayloadReader.members)
    private let attributeTypes: [ColumnType]

    package init(path: String, schema: Schema, reading: PayloadReading = PayloadReading(), chunkSize: Int = 1 << 20) throws {
        self.path = path
        guard let entity = schema.index(of: ProductsPayloadReader.product.name), schema.entities[entity] == ProductsPayloadReader.product else {
            throw PayloadError(file: path, byteOffset: nil, path: nil, expected: .scenarioSchema("products"), found: "schema '\(schema.name)'")
        }
        self.entity = entity
        attributeTypes = ProductsPayloadReader.product.attributes.map(\.type)
        let elements = try JSONElements.open(
            path: path, arrayPath: Self.elements, chunkSize: chunkSize, limits: reading.limits, hasher: reading.hasher)
        records = JSONRecordStream(elements: elements, recordName: "product", onError: reading.onError)
    }

    package func nextUnit() throws -> RecordUnit? {
        try records.nextUnit { try unit(of: $0) }
    }

    /// The import's path: values go from the tape straight into the builder.
    package func readUnit(into builder: RecordBuilder) throws -> Bool {
        try records.readUnit(into: builder, by: self)
    }

    func decodeElement(_ tape: JSONTape, into builder: RecordBuilder) throws {
        let found = try memberIndexes(of: tape)
        builder.begin(entity: entity)
        try tape.withStringBytes(at: found[0]) { builder.key(text: $0) }
        for (position, type) in attributeTypes.enumerated() {
            let index = found[position + 1]
            if index < 0 { builder.absent() } else { try tape.write(valueAt: index, to: builder, as: type) }
        }
        builder.finish()
    }

    package var skippedRecords: [String: Int] { records.errors.skippedRecords }
    package var skippedErrors: [PayloadError] { records.errors.skippedErrors }

    private func unit(of tape: JSONTape) throws -> RecordUnit {
        let found = try memberIndexes(of: tape)
        let key = StoreValue.text(try tape.string(at: found[0]))
        var values: [StoreValue] = []
        var absent = ColumnSet()
        values.reserveCapacity(attributeTypes.count)
        for (position, type) in attributeTypes.enumerated() {
            let index = found[position + 1]
            if index < 0 { absent.insert(position) }
            values.append(index < 0 ? .null : try JSONValue(tape: tape, index: index).storeValue(as: type))
        }
        var occurrence = RecordOccurrence(entity: entity, key: key, attributes: values)
        occurrence.absent = absent
        return RecordUnit(occurrences: [occurrence], path: tape.recordPath, byteOffset: tape.baseOffset)
    }

    /// Where the product's members are (-1 when absent); the key's slot always holds a value. By
    /// token index (`JSONTape+Indexes`): a `JSONObject` would retain and release the tape.
    private func memberIndexes(of tape: JSONTape) throws -> UnsafeMutableBufferPointer<Int> {
        let product = try tape.object(at: 0)
        try tape.find(Self.members.table, inObject: product, into: slots.values)
        let found = slots.values
        if found[0] < 0 || tape.isNull(at: found[0]) {
            // Finds nothing the one pass missed: it throws the error naming the key (absent or null).
            found[0] = try tape.requiredMember(ProductsPayloadReader.product.key.name, inObject: product)
        }
        return found
    }
}

/// What this reader reads, declared here so that the scenario's schema and the reader agree.
extension ProductsPayloadReader {
    package static let product = Entity(
        "product", key: Attribute("serialCode", .text),
        attributes: [
            Attribute("name", .text), Attribute("brand", .text), Attribute("category", .text),
            Attribute("price", .real), Attribute("currency", .text), Attribute("stock", .integer),
            Attribute("active", .boolean), Attribute("updatedAt", .text), Attribute("description", .text),
        ])
}
