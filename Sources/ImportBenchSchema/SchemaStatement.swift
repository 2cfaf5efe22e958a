/// One CREATE statement of a schema, with the name of the index it creates (nil: a table).
package struct SchemaStatement {
    package let sql: String
    package let index: String?

    package static func table(_ sql: String) -> SchemaStatement { SchemaStatement(sql: sql, index: nil) }
    package static func index(_ name: String, _ sql: String) -> SchemaStatement { SchemaStatement(sql: sql, index: name) }
}
