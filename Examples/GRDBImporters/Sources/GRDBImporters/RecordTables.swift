import ImportBench

/// The record types this example has for each schema it knows: chat, products, and the orders feed
/// read through Scenarios/examples/orders/mapping.yml.
enum RecordTables {
    static var known: [String: [String: any ImportedRecord.Type]] {
        [
            "chat": [
                "user": ChatUser.self, "channel": ChatChannel.self, "message": ChatMessage.self, "reaction": ChatReaction.self,
                "attachment": ChatAttachment.self, "member": ChatMember.self, "read": ChatRead.self,
            ],
            "products": ["product": Product.self],
            "orders": [
                "customer": Customer.self, "product": OrderedProduct.self, "tag": Tag.self, "order": Order.self, "line": OrderLine.self,
            ],
        ]
    }

    /// A table per entity of `schema`, in its order. A schema this example has no records for, or
    /// whose columns differ from its records', is refused before anything is written.
    static func tables(for schema: Schema) throws -> [RecordTable] {
        guard let records = known[schema.name] else {
            throw GRDBImportError.unknownSchema(
                "the GRDB strategies have records for \(known.keys.sorted().joined(separator: ", ")), not for '\(schema.name)'")
        }
        return try schema.entities.map { entity in
            guard let record = records[entity.name] else {
                throw GRDBImportError.unknownSchema("the GRDB strategies have no record for \(schema.name) entity '\(entity.name)'")
            }
            let columns = entity.attributes.map(\.name) + entity.toOne.map(\.column)
            guard record.keyColumn == entity.key.name, record.payloadColumns == columns, entity.key.type == .text else {
                throw GRDBImportError.unknownSchema(
                    "\(schema.name).\(entity.name) has key \(entity.key.name) and columns \(columns.joined(separator: ", ")); "
                        + "its record expects key \(record.keyColumn) and \(record.payloadColumns.joined(separator: ", "))")
            }
            return RecordTable(record, entity: entity, tracksListing: schema.hasListedColumn(entity))
        }
    }
}
