/// One CREATE statement of a schema, marked when it creates a secondary index rather than a table.
struct SchemaStatement {
    let sql: String
    let isIndex: Bool

    static func table(_ sql: String) -> SchemaStatement { SchemaStatement(sql: sql, isIndex: false) }
    static func index(_ sql: String) -> SchemaStatement { SchemaStatement(sql: sql, isIndex: true) }
}
