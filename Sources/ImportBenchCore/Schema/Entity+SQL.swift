/// The SQL each strategy prepares for an entity. Column order everywhere: key, attributes, to-one columns.
extension Entity {
    var table: String { quoted(name) }
    var keyColumn: String { quoted(key.name) }
    private var attributeColumns: [String] { attributes.map { quoted($0.name) } }
    private var foreignKeyColumns: [String] { toOne.map { quoted($0.column) } }
    private var objectColumns: [String] { [keyColumn] + attributeColumns + foreignKeyColumns }

    private func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// Find one object by key, reading every column as an app materialising it would.
    var selectObjectByKeySQL: String {
        "SELECT pk, \(objectColumns.joined(separator: ", ")) FROM \(table) WHERE \(keyColumn) = ?"
    }

    /// Resolve a key to its pk.
    var selectPKByKeySQL: String {
        "SELECT pk FROM \(table) WHERE \(keyColumn) = ?"
    }

    /// Resolve many keys at once: `SELECT key, pk ... WHERE key IN (?, ...)`.
    func selectPKsByKeysSQL(count: Int) -> String {
        "SELECT \(keyColumn), pk FROM \(table) WHERE \(keyColumn) IN (\(placeholders(count)))"
    }

    /// Insert a whole object: key, attributes, foreign keys.
    var insertObjectSQL: String {
        "INSERT INTO \(table) (\(objectColumns.joined(separator: ", "))) VALUES (\(placeholders(objectColumns.count)))"
    }

    /// Insert a whole object with a pk chosen by the caller (the ceiling's plain inserts).
    var insertObjectWithPKSQL: String {
        "INSERT INTO \(table) (pk, \(objectColumns.joined(separator: ", "))) VALUES (\(placeholders(objectColumns.count + 1)))"
    }

    /// Update attributes and foreign keys of a known row; the pk is the last parameter.
    /// nil for an entity that is its key alone: there is nothing to update.
    var updateObjectSQL: String? {
        let assignments = (attributeColumns + foreignKeyColumns).map { "\($0) = ?" }
        guard !assignments.isEmpty else { return nil }
        return "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE pk = ?"
    }

    /// Update attributes only (idcache's first phase); the pk is the last parameter.
    var updateAttributesSQL: String? {
        guard !attributes.isEmpty else { return nil }
        let assignments = attributeColumns.map { "\($0) = ?" }
        return "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE pk = ?"
    }

    /// Update foreign keys only (idcache's second phase); the pk is the last parameter.
    var updateForeignKeysSQL: String? {
        guard !toOne.isEmpty else { return nil }
        let assignments = foreignKeyColumns.map { "\($0) = ?" }
        return "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE pk = ?"
    }

    /// Insert or update key and attributes only, returning the pk (idcache's first phase).
    var upsertAttributesSQL: String {
        let columns = [keyColumn] + attributeColumns
        return "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(placeholders(columns.count))) "
            + "ON CONFLICT(\(keyColumn)) DO \(updateClause(attributeColumns)) RETURNING pk"
    }

    /// Insert or update a whole object in one statement, returning its pk and foreign keys.
    /// Each foreign key is bound twice: the target's pk when this batch already knows it, else
    /// NULL and the target's key, resolved inside the statement, never by a separate fetch.
    func upsertObjectSQL(in schema: Schema) -> String {
        var values = ["?"] + attributes.map { _ in "?" }
        for relationship in toOne {
            let target = schema.entities[schema.targetIndex(of: relationship)]
            values.append("coalesce(?, (SELECT pk FROM \(target.table) WHERE \(target.keyColumn) = ?))")
        }
        let returning = (["pk"] + foreignKeyColumns).joined(separator: ", ")
        return "INSERT INTO \(table) (\(objectColumns.joined(separator: ", "))) VALUES (\(values.joined(separator: ", "))) "
            + "ON CONFLICT(\(keyColumn)) DO \(updateClause(attributeColumns + foreignKeyColumns)) RETURNING \(returning)"
    }

    private func updateClause(_ columns: [String]) -> String {
        // An entity made of its key alone still needs RETURNING to yield the pk on conflict.
        let assignments = columns.isEmpty ? ["\(keyColumn) = excluded.\(keyColumn)"] : columns.map { "\($0) = excluded.\($0)" }
        return "UPDATE SET \(assignments.joined(separator: ", "))"
    }

    /// Add one pair to a many-to-many set; an existing pair is left alone.
    func insertJoinSQL(_ relationship: ManyToManyRelationship) -> String {
        "INSERT INTO \(quoted(joinTable(relationship))) (source_pk, target_pk) VALUES (?, ?) ON CONFLICT DO NOTHING"
    }

    /// As `insertJoinSQL`, with the target resolved inside the statement when the caller has no pk.
    func upsertJoinSQL(_ relationship: ManyToManyRelationship, in schema: Schema) -> String {
        let target = schema.entities[schema.targetIndex(of: relationship)]
        return "INSERT INTO \(quoted(joinTable(relationship))) (source_pk, target_pk) "
            + "VALUES (?, coalesce(?, (SELECT pk FROM \(target.table) WHERE \(target.keyColumn) = ?))) ON CONFLICT DO NOTHING"
    }
}
