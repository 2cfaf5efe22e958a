import ImportBenchStore

/// One unit per product of a top-level array. `serialCode` is required; every other field may be
/// missing or null; unknown fields are ignored.
public final class ProductsPayloadReader: RecordReader {
    public let path: String
    private let elements: JSONArrayElementReader
    private let entity: Int
    private let attributes: [Attribute]

    public init(path: String, schema: Schema) throws {
        self.path = path
        guard let entity = schema.index(of: ProductsScenario.product.name), schema.entities[entity] == ProductsScenario.product else {
            throw PayloadError(file: path, byteOffset: nil, path: nil, expected: "the products schema", found: "schema '\(schema.name)'")
        }
        self.entity = entity
        attributes = ProductsScenario.product.attributes
        elements = try JSONArrayElementReader(path: path, arrayPath: [])
    }

    public func nextUnit() throws -> RecordUnit? {
        guard let element = try elements.next() else { return nil }
        let unitPath = "[\(element.index)]"
        let tape = try JSONTape(bytes: element.bytes, baseOffset: element.byteOffset, file: path, recordPath: unitPath)
        let product = try tape.root.object()
        let key = DatabaseValue.text(try product.required("serialCode").string())
        var values: [DatabaseValue] = []
        values.reserveCapacity(attributes.count)
        for attribute in attributes { values.append(try product.databaseValue(attribute.name, as: attribute.type)) }
        return RecordUnit(
            occurrences: [RecordOccurrence(entity: entity, key: key, attributes: values)], path: unitPath, byteOffset: element.byteOffset)
    }
}
