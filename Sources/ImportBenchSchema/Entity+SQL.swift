/// The SQL each strategy prepares for an entity. Column order everywhere: key, attributes, to-one columns.
/// Every write also stamps the row with the import's generation (a literal: it is fixed per import),
/// so a refresh can tell which children and set members its payload listed. On an entity that
/// tracks listing, each object write takes one more parameter after its foreign keys (before an
/// UPDATE's pk): this generation when the object lists its children, else 0 (`Schema.listedColumn`).
extension Entity {
    package var table: String { quoted(name) }
    package var keyColumn: String { quoted(key.name) }
    private var attributeColumns: [String] { attributes.map { quoted($0.name) } }
    private var foreignKeyColumns: [String] { toOne.map { quoted($0.column) } }
    private var objectColumns: [String] { [keyColumn] + attributeColumns + foreignKeyColumns }
    private var generation: String { Schema.generationColumn }
    private var listed: String { Schema.listedColumn }

    /// The listing column, when the entity has one: to append to a column list.
    private func listedColumns(in schema: Schema) -> [String] { schema.hasListedColumn(self) ? [listed] : [] }

    /// An update keeps the newest import that listed the object's children: `max`, as a copy that
    /// lists none binds 0.
    private func listedAssignments(in schema: Schema, value: String) -> [String] {
        schema.hasListedColumn(self) ? ["\(listed) = max(\(listed), \(value))"] : []
    }

    private func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// Find one object by key, reading every column as an app materialising it would.
    package var selectObjectByKeySQL: String {
        "SELECT pk, \(objectColumns.joined(separator: ", ")) FROM \(table) WHERE \(keyColumn) = ?"
    }

    /// Resolve a key to its pk.
    package var selectPKByKeySQL: String {
        "SELECT pk FROM \(table) WHERE \(keyColumn) = ?"
    }

    /// Every stored key with its pk (a resumed idcache rebuilds its cache from it).
    package var selectAllPKsSQL: String {
        "SELECT \(keyColumn), pk FROM \(table)"
    }

    /// Resolve many keys at once: `SELECT key, pk ... WHERE key IN (?, ...)`.
    package func selectPKsByKeysSQL(count: Int) -> String {
        "SELECT \(keyColumn), pk FROM \(table) WHERE \(keyColumn) IN (\(placeholders(count)))"
    }

    /// Insert a whole object: key, attributes, foreign keys.
    package func insertObjectSQL(in schema: Schema, generation value: Int64) -> String {
        let listed = listedColumns(in: schema)
        return "INSERT INTO \(table) (\((objectColumns + listed + [generation]).joined(separator: ", "))) "
            + "VALUES (\(placeholders(objectColumns.count + listed.count)), \(value))"
    }

    /// Parameters per object of `insertObjectsWithPKSQL`: pk, key, attributes, foreign keys, listing mark.
    package func objectWithPKWidth(in schema: Schema) -> Int {
        1 + objectColumns.count + listedColumns(in: schema).count
    }

    /// Insert `rows` whole objects with pks chosen by the caller, several to a statement (the ceiling's
    /// and bulk's loads): `objectWithPKWidth` parameters per row: pk, key, attributes, foreign keys, listing mark.
    package func insertObjectsWithPKSQL(in schema: Schema, generation value: Int64, rows: Int) -> String {
        let listed = listedColumns(in: schema)
        let row = "(\(placeholders(objectWithPKWidth(in: schema))), \(value))"
        return "INSERT INTO \(table) (pk, \((objectColumns + listed + [generation]).joined(separator: ", "))) VALUES "
            + Array(repeating: row, count: rows).joined(separator: ", ")
    }

    /// Replace a whole object, deleting the stored row (and, through the foreign keys, its children and
    /// every link to it) first: the pitfall strategy's statement, returning the new pk and foreign keys.
    package func replaceObjectSQL(in schema: Schema, generation value: Int64) -> String {
        let listed = listedColumns(in: schema)
        let values = [objectValues(in: schema)] + listed.map { _ in "?" }
        return "INSERT OR REPLACE INTO \(table) (\((objectColumns + listed + [generation]).joined(separator: ", "))) "
            + "VALUES (\(values.joined(separator: ", ")), \(value)) RETURNING \((["pk"] + foreignKeyColumns).joined(separator: ", "))"
    }

    /// Update attributes and foreign keys of a known row; the pk is the last parameter. Parameters
    /// are numbered, so the columns in `absent` (attributes, then to-one relationships, that the
    /// payload left out) drop out of the SET list while every value is still bound where it was.
    package func updateObjectSQL(in schema: Schema, generation value: Int64, absent: ColumnSet = ColumnSet()) -> String {
        updateSQL(attributeColumns + foreignKeyColumns, in: schema, generation: value, absent: absent)
    }

    /// Update attributes only (idcache's first phase); the pk is the last parameter. Numbered
    /// parameters, the columns in `absent` left out, as `updateObjectSQL`.
    package func updateAttributesSQL(in schema: Schema, generation value: Int64, absent: ColumnSet = ColumnSet()) -> String {
        updateSQL(attributeColumns, in: schema, generation: value, absent: absent)
    }

    /// `UPDATE ... SET column = ?N` for each of `columns` not in `absent`, then the listing mark and
    /// the generation, `WHERE pk =` the last parameter.
    private func updateSQL(_ columns: [String], in schema: Schema, generation value: Int64, absent: ColumnSet) -> String {
        var assignments = columns.enumerated().filter { !absent.contains($0.offset) }.map { "\($0.element) = ?\($0.offset + 1)" }
        var next = columns.count + 1
        if schema.hasListedColumn(self) {
            assignments += listedAssignments(in: schema, value: "?\(next)")
            next += 1
        }
        assignments.append("\(generation) = \(value)")
        return "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE pk = ?\(next)"
    }

    /// Update foreign keys only (idcache's second phase); the pk is the last parameter. Numbered
    /// parameters, the relationships in `absent` left out; nil when none is left to set.
    package func updateForeignKeysSQL(absent: ColumnSet = ColumnSet()) -> String? {
        let assignments = foreignKeyColumns.enumerated().filter { !absent.contains(attributes.count + $0.offset) }
            .map { "\($0.element) = ?\($0.offset + 1)" }
        guard !assignments.isEmpty else { return nil }
        return "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE pk = ?\(foreignKeyColumns.count + 1)"
    }

    /// Insert or update key and attributes only, returning the pk (idcache's first phase).
    package func upsertAttributesSQL(in schema: Schema, generation value: Int64, absent: ColumnSet = ColumnSet()) -> String {
        let columns = [keyColumn] + attributeColumns + listedColumns(in: schema)
        return "INSERT INTO \(table) (\(columns.joined(separator: ", ")), \(generation)) "
            + "VALUES (\(placeholders(columns.count)), \(value)) "
            + "ON CONFLICT(\(keyColumn)) DO \(updateClause(attributeColumns, absent: absent, in: schema)) RETURNING pk"
    }

    /// Insert or update a whole object in one statement, returning its pk and foreign keys.
    /// Each foreign key is bound twice: the target's pk when this batch already knows it, else
    /// NULL and the target's key, resolved inside the statement, never by a separate fetch.
    /// The columns in `absent` are inserted as NULL but left out of the update.
    package func upsertObjectSQL(in schema: Schema, generation value: Int64, absent: ColumnSet = ColumnSet()) -> String {
        let returning = (["pk"] + foreignKeyColumns).joined(separator: ", ")
        let listed = listedColumns(in: schema)
        let values = [objectValues(in: schema)] + listed.map { _ in "?" }
        return "INSERT INTO \(table) (\((objectColumns + listed + [generation]).joined(separator: ", "))) "
            + "VALUES (\(values.joined(separator: ", ")), \(value)) "
            + "ON CONFLICT(\(keyColumn)) DO \(updateClause(attributeColumns + foreignKeyColumns, absent: absent, in: schema)) "
            + "RETURNING \(returning)"
    }

    /// Insert or update a whole object in one statement, as SQLite users write it: no RETURNING.
    /// Parameters as `upsertObjectSQL`; a foreign key the caller has no pk for is resolved inside
    /// the statement from the target's key. A key that names no row becomes -1, which no row has,
    /// so the foreign key constraint fails the statement: a dangling reference stops the import, as
    /// it does in every strategy, instead of being stored as NULL.
    /// The columns in `absent` are inserted as NULL but left out of the update.
    package func upsertObjectWithoutReturningSQL(in schema: Schema, generation value: Int64, absent: ColumnSet = ColumnSet()) -> String {
        var values = (1...(1 + attributes.count)).map { "?\($0)" }
        for (index, relationship) in toOne.enumerated() {
            let target = schema.entities[schema.targetIndex(of: relationship)]
            let pk = 2 + attributes.count + 2 * index
            let key = pk + 1
            values.append(
                "coalesce(?\(pk), (SELECT pk FROM \(target.table) WHERE \(target.keyColumn) = ?\(key)), "
                    + "CASE WHEN ?\(key) IS NULL THEN NULL ELSE -1 END)")
        }
        let listed = listedColumns(in: schema)
        values += listed.map { _ in "?\(2 + attributes.count + 2 * toOne.count)" }
        return "INSERT INTO \(table) (\((objectColumns + listed + [generation]).joined(separator: ", "))) "
            + "VALUES (\(values.joined(separator: ", ")), \(value)) "
            + "ON CONFLICT(\(keyColumn)) DO \(updateClause(attributeColumns + foreignKeyColumns, absent: absent, in: schema))"
    }

    /// Key and attribute parameters, then per foreign key `coalesce(?, (SELECT pk ... WHERE key = ?))`.
    private func objectValues(in schema: Schema) -> String {
        var values = ["?"] + attributes.map { _ in "?" }
        for relationship in toOne {
            let target = schema.entities[schema.targetIndex(of: relationship)]
            values.append("coalesce(?, (SELECT pk FROM \(target.table) WHERE \(target.keyColumn) = ?))")
        }
        return values.joined(separator: ", ")
    }

    /// `SET column = excluded.column` for each of `columns` (attributes, then foreign keys) not in `absent`.
    private func updateClause(_ columns: [String], absent: ColumnSet = ColumnSet(), in schema: Schema) -> String {
        let kept = columns.enumerated().filter { !absent.contains($0.offset) }.map(\.element)
        let assignments =
            (kept + [generation]).map { "\($0) = excluded.\($0)" }
            + listedAssignments(in: schema, value: "excluded.\(listed)")
        return "UPDATE SET \(assignments.joined(separator: ", "))"
    }

    /// Adds one pair to a many-to-many set, the source's pk bound at 1 and the target's at 2; an
    /// existing pair is only stamped with this import's `generation` (`StrategyContext.generation`),
    /// which the refresh sweep keeps.
    public func insertJoinSQL(_ relationship: ManyToManyRelationship, generation value: Int64) -> String {
        "INSERT INTO \(quoted(joinTable(relationship))) (source_pk, target_pk, \(generation)) VALUES (?, ?, \(value)) "
            + "ON CONFLICT DO UPDATE SET \(generation) = excluded.\(generation)"
    }

    /// Add `rows` pairs (source pk, target pk) to a set, several to a statement; an existing pair is
    /// only stamped with this import.
    package func insertJoinPairsSQL(_ relationship: ManyToManyRelationship, generation value: Int64, rows: Int) -> String {
        "INSERT INTO \(quoted(joinTable(relationship))) (source_pk, target_pk, \(generation)) VALUES "
            + Array(repeating: "(?, ?, \(value))", count: rows).joined(separator: ", ")
            + " ON CONFLICT DO UPDATE SET \(generation) = excluded.\(generation)"
    }

    /// As `insertJoinSQL`, with the target resolved inside the statement when the caller has no pk.
    package func upsertJoinSQL(_ relationship: ManyToManyRelationship, in schema: Schema, generation value: Int64) -> String {
        let target = schema.entities[schema.targetIndex(of: relationship)]
        return "INSERT INTO \(quoted(joinTable(relationship))) (source_pk, target_pk, \(generation)) "
            + "VALUES (?, coalesce(?, (SELECT pk FROM \(target.table) WHERE \(target.keyColumn) = ?)), \(value)) "
            + "ON CONFLICT DO UPDATE SET \(generation) = excluded.\(generation)"
    }

    /// As `upsertJoinSQL`, with the source resolved inside the statement too: source pk or NULL,
    /// source key, target pk or NULL, target key. An unknown target leaves `target_pk` NULL, which
    /// its NOT NULL constraint refuses.
    package func upsertJoinByKeysSQL(_ relationship: ManyToManyRelationship, in schema: Schema, generation value: Int64) -> String {
        let target = schema.entities[schema.targetIndex(of: relationship)]
        return "INSERT INTO \(quoted(joinTable(relationship))) (source_pk, target_pk, \(generation)) "
            + "VALUES (coalesce(?, (SELECT pk FROM \(table) WHERE \(keyColumn) = ?)), "
            + "coalesce(?, (SELECT pk FROM \(target.table) WHERE \(target.keyColumn) = ?)), \(value)) "
            + "ON CONFLICT DO UPDATE SET \(generation) = excluded.\(generation)"
    }

    /// Add one pair with `INSERT OR REPLACE` (the pitfall strategy's join write).
    package func replaceJoinSQL(_ relationship: ManyToManyRelationship, in schema: Schema, generation value: Int64) -> String {
        let target = schema.entities[schema.targetIndex(of: relationship)]
        return "INSERT OR REPLACE INTO \(quoted(joinTable(relationship))) (source_pk, target_pk, \(generation)) "
            + "VALUES (?, coalesce(?, (SELECT pk FROM \(target.table) WHERE \(target.keyColumn) = ?)), \(value))"
    }
}
