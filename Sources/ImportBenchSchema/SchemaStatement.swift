/// One CREATE statement of a schema, with the name of the index it creates (nil: a table).
struct SchemaStatement {
    let sql: String
    let index: String?

    static func table(_ sql: String) -> SchemaStatement { SchemaStatement(sql: sql, index: nil) }
    static func index(_ name: String, _ sql: String) -> SchemaStatement { SchemaStatement(sql: sql, index: name) }
}
