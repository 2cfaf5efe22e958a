extension Schema {
    /// The import that last wrote a row or join pair. A refresh deletes the children and set members
    /// its payload no longer lists by comparing this mark, so no strategy holds the payload's keys in memory.
    public static let generationColumn = "import_generation"

    /// The import that last named the row's object with all of its children and set members listed
    /// (0: none). An embedded copy that lists none of them (a quoted message) stamps the row's
    /// generation but not this, so the refresh keeps the children stored before.
    public static let listedColumn = "import_listed"

    /// Bumped when the tables bench creates change shape (2: `listedColumn`; 3: uniqueness as a named
    /// index), so a checkpoint of another layout is refused instead of failing on a missing column.
    package static let storeLayout = 3

    /// CREATE statements for every table and index, in dependency order.
    package var ddl: [String] {
        entities.flatMap { entity in entity.ddl(in: self).map(\.sql) }
    }

    /// The CREATE TABLE statements alone, in dependency order: a bulk load fills the tables before
    /// `indexDDL` builds every index in one sorted pass each.
    package var tableDDL: [String] {
        entities.flatMap { entity in entity.ddl(in: self).filter { $0.index == nil }.map(\.sql) }
    }

    /// The CREATE INDEX statements alone, natural keys' uniqueness included; run after `tableDDL`.
    package var indexDDL: [String] {
        entities.flatMap { entity in entity.ddl(in: self).filter { $0.index != nil }.map(\.sql) }
    }

    /// The name of every index `indexDDL` creates, in the same order: what a bulk load drops before
    /// its rows (`DROP INDEX`) and creates again after them.
    package var indexNames: [String] {
        entities.flatMap { entity in entity.ddl(in: self).compactMap(\.index) }
    }
}

extension Entity {
    func ddl(in schema: Schema) -> [SchemaStatement] {
        var columns = ["pk INTEGER PRIMARY KEY"]
        // Uniqueness is a named index, not a column constraint, so a bulk load can drop it before its
        // rows and build it after them in one sorted pass; `ON CONFLICT(key)` uses it all the same.
        columns.append("\(quoted(key.name)) \(key.type.declaration) NOT NULL")
        columns += attributes.map { "\(quoted($0.name)) \($0.type.declaration)" }
        columns.append("\(Schema.generationColumn) INTEGER NOT NULL DEFAULT 0")
        if schema.hasListedColumn(self) { columns.append("\(Schema.listedColumn) INTEGER NOT NULL DEFAULT 0") }
        for relationship in toOne {
            let action = relationship.owner ? " ON DELETE CASCADE" : " ON DELETE SET NULL"
            columns.append(
                "\(quoted(relationship.column)) INTEGER REFERENCES \(quoted(relationship.target))(pk)\(action)")
        }
        var statements: [SchemaStatement] = [
            .table("CREATE TABLE \(quoted(name)) (\(columns.joined(separator: ", ")))"),
            .index(keyIndexName, "CREATE UNIQUE INDEX \(quoted(keyIndexName)) ON \(quoted(name))(\(quoted(key.name)))"),
        ]
        // Core Data indexes to-one foreign keys; cascades and relationship reads need them.
        for relationship in toOne {
            let index = foreignKeyIndexName(relationship)
            statements.append(.index(index, "CREATE INDEX \(quoted(index)) ON \(quoted(name))(\(quoted(relationship.column)))"))
        }
        for relationship in manyToMany {
            let table = joinTable(relationship)
            statements.append(
                .table(
                    """
                    CREATE TABLE \(quoted(table)) (\
                    source_pk INTEGER NOT NULL REFERENCES \(quoted(name))(pk) ON DELETE CASCADE, \
                    target_pk INTEGER NOT NULL REFERENCES \(quoted(relationship.target))(pk) ON DELETE CASCADE, \
                    \(Schema.generationColumn) INTEGER NOT NULL DEFAULT 0, \
                    PRIMARY KEY (source_pk, target_pk)) WITHOUT ROWID
                    """))
            let index = joinTargetIndexName(relationship)
            statements.append(.index(index, "CREATE INDEX \(quoted(index)) ON \(quoted(table))(target_pk)"))
        }
        return statements
    }
}

extension Entity {
    /// The unique index on the natural key.
    var keyIndexName: String { "\(name)_\(key.name)_unique" }
    fileprivate func foreignKeyIndexName(_ relationship: ToOneRelationship) -> String { "\(name)_\(relationship.column)" }
    fileprivate func joinTargetIndexName(_ relationship: ManyToManyRelationship) -> String { "\(joinTable(relationship))_target" }

    /// Every table and index `ddl` creates for the entity, with the relationship each serves (nil:
    /// the entity's own table). SQLite keeps them in one namespace, case-insensitively, so `Schema`
    /// refuses two that meet (an entity `post_tags` beside `post`'s set `tags`).
    var storeObjectNames: [(name: String, relationship: String?)] {
        var names: [(name: String, relationship: String?)] = [(name, nil), (keyIndexName, nil)]
        for relationship in toOne { names.append((foreignKeyIndexName(relationship), relationship.name)) }
        for relationship in manyToMany {
            names.append((joinTable(relationship), relationship.name))
            names.append((joinTargetIndexName(relationship), relationship.name))
        }
        return names
    }
}
