import ImportBenchSchema

/// The SQL the `staged` strategy runs for one entity, set-based: a batch's unique objects go into a
/// TEMP stage table, then one `INSERT ... SELECT ... ON CONFLICT DO UPDATE` writes them, resolving
/// references to natural keys by joins inside SQL.
///
/// The stage's columns carry no type, so a value keeps the storage class it was bound with, as a
/// statement parameter does; each join compares `target.key = +stage.column`, whose unary `+`
/// strips the stage column's affinity so the target key's affinity applies, exactly as in the
/// other strategies' `WHERE key = ?` (and the target's unique index is still used). Stage and
/// pair tables are named `temp.importbench_staged_*`: no entity's name may start with `importbench_`.
struct StagedSQL {
    /// The entities, for targets' tables and keys.
    let schema: Schema
    /// The entity's position in `schema.entities`, which names its TEMP tables.
    let index: Int
    /// The import's generation, written as a literal (fixed per import), as `Entity+SQL` does.
    let generation: Int64

    /// The entity this SQL writes.
    var entity: Entity { schema.entities[index] }

    /// Per to-one relationship: whether it points at the entity itself (a message quoting a
    /// message), which a second statement resolves once all of the batch's rows are written.
    var isSelfReference: [Bool] { schema.toOneTargets[index].map { $0 == index } }

    /// Whether its rows carry the listing column the refresh sweep reads.
    private var tracksListing: Bool { schema.tracksListing[index] }

    /// One row per unique object: `slot` (its position among the batch's objects of the entity, to
    /// find it again when a reference dangles), `grp` (its set of absent columns, numbered per
    /// batch), key, attributes, to-one target keys, and the listing mark where the entity has one.
    var stageTable: String { "temp.importbench_staged_\(index)" }

    /// One row per member of a many-to-many set: the source's slot and the target's key.
    func pairsTable(_ relationship: Int) -> String { "temp.importbench_staged_\(index)_\(relationship)" }

    /// The stage's value columns, in binding order.
    var stageColumns: [String] {
        ["slot", "grp", "k"] + entity.attributes.indices.map { "a\($0)" } + entity.toOne.indices.map { "r\($0)" }
            + (tracksListing ? ["listed"] : [])
    }

    /// Drops what an earlier instance on this connection left and creates the entity's TEMP tables.
    var createSQL: [String] {
        let values = stageColumns.dropFirst(2).joined(separator: ", ")
        var sql = [
            "DROP TABLE IF EXISTS \(stageTable)",
            "CREATE TABLE \(stageTable) (slot INTEGER PRIMARY KEY, grp INTEGER NOT NULL, \(values))",
        ]
        for relationship in entity.manyToMany.indices {
            sql += ["DROP TABLE IF EXISTS \(pairsTable(relationship))", "CREATE TABLE \(pairsTable(relationship)) (slot INTEGER NOT NULL, t)"]
        }
        return sql
    }

    /// Empties a TEMP table without a WHERE, which SQLite does by truncation.
    static func clearSQL(_ table: String) -> String { "DELETE FROM \(table)" }

    /// `INSERT INTO table (columns) VALUES (?, ...), (?, ...)` for `rows` rows.
    static func insertRowsSQL(_ table: String, columns: [String], rows: Int) -> String {
        let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        return "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
            + Array(repeating: row, count: rows).joined(separator: ", ")
    }

    /// Inserts or updates every staged object of group `?1`, in key order. A to-one key resolves by a
    /// join to its target's pk; one that names no row becomes -1, which no row has, so the foreign
    /// key constraint fails the statement (`upsertObjectWithoutReturningSQL` does the same). A
    /// self-reference is NULL on insert and left as stored on update: `selfReferenceSQL` sets it.
    /// `absent` columns are inserted as NULL but left out of the update. SQLite needs the WHERE:
    /// without one, `ON CONFLICT` after `INSERT ... SELECT ... FROM` parses as a join constraint.
    func upsertSQL(absent: ColumnSet) -> String {
        let entity = entity
        let isSelf = isSelfReference
        let foreignKeys = entity.toOne.map { quoted($0.column) }
        var columns = [entity.keyColumn] + entity.attributes.map { quoted($0.name) } + foreignKeys
        var values = ["s.k"] + entity.attributes.indices.map { "s.a\($0)" }
        var joins = ""
        for (position, relationship) in entity.toOne.enumerated() {
            guard !isSelf[position] else {
                values.append("NULL")
                continue
            }
            let target = schema.entities[schema.targetIndex(of: relationship)]
            joins += " LEFT JOIN \(target.table) AS t\(position) ON t\(position).\(target.keyColumn) = +s.r\(position)"
            values.append("CASE WHEN s.r\(position) IS NULL THEN NULL ELSE coalesce(t\(position).pk, -1) END")
        }
        let listed = Schema.listedColumn
        let generationColumn = Schema.generationColumn
        if tracksListing {
            columns.append(listed)
            values.append("s.listed")
        }
        columns.append(generationColumn)
        values.append("\(generation)")
        let attributeCount = entity.attributes.count
        let updated = (entity.attributes.map { quoted($0.name) } + foreignKeys).enumerated().filter { column in
            let selfReference = column.offset >= attributeCount && isSelf[column.offset - attributeCount]
            return !absent.contains(column.offset) && !selfReference
        }
        var assignments = updated.map { "\($0.element) = excluded.\($0.element)" }
        assignments.append("\(generationColumn) = excluded.\(generationColumn)")
        if tracksListing { assignments.append("\(listed) = max(\(listed), excluded.\(listed))") }
        return "INSERT INTO \(entity.table) (\(columns.joined(separator: ", "))) "
            + "SELECT \(values.joined(separator: ", ")) FROM \(stageTable) AS s\(joins) WHERE s.grp = ?1 ORDER BY s.k "
            + "ON CONFLICT(\(entity.keyColumn)) DO UPDATE SET \(assignments.joined(separator: ", "))"
    }

    /// The second step for an entity that refers to itself: sets each self-reference group `?1`
    /// gives, by a key join, once every row of the batch is written (a quoted message may come
    /// later in key order, or in the same statement). An unknown key becomes -1, failing the foreign
    /// key. Rows whose reference is NULL before and after are skipped. Nil when the group leaves
    /// every self-reference out (they keep what is stored).
    func selfReferenceSQL(absent: ColumnSet) -> String? {
        let entity = entity
        let present = entity.toOne.indices.filter { isSelfReference[$0] && !absent.contains(entity.attributes.count + $0) }
        guard !present.isEmpty else { return nil }
        let table = entity.table
        let assignments = present.map { position in
            "\(quoted(entity.toOne[position].column)) = CASE WHEN s.r\(position) IS NULL THEN NULL ELSE "
                + "coalesce((SELECT t.pk FROM \(table) AS t WHERE t.\(entity.keyColumn) = +s.r\(position)), -1) END"
        }
        let changing = present.map { "s.r\($0) IS NOT NULL OR \(table).\(quoted(entity.toOne[$0].column)) IS NOT NULL" }
        return "UPDATE \(table) SET \(assignments.joined(separator: ", ")) FROM \(stageTable) AS s "
            + "WHERE s.grp = ?1 AND \(table).\(entity.keyColumn) = +s.k AND (\(changing.joined(separator: " OR ")))"
    }

    /// Adds every staged pair of a many-to-many set, the source found through its staged key (its row
    /// is written by now) and the target by key; an existing pair is only stamped with this import.
    /// An unknown target leaves `target_pk` NULL, which its NOT NULL constraint refuses.
    func joinSQL(_ relationship: Int) -> String {
        let entity = entity
        let target = schema.entities[schema.manyToManyTargets[index][relationship]]
        let generationColumn = Schema.generationColumn
        return "INSERT INTO \(quoted(entity.joinTable(entity.manyToMany[relationship]))) (source_pk, target_pk, \(generationColumn)) "
            + "SELECT e.pk, t.pk, \(generation) FROM \(pairsTable(relationship)) AS p "
            + "JOIN \(stageTable) AS s ON s.slot = p.slot JOIN \(entity.table) AS e ON e.\(entity.keyColumn) = +s.k "
            + "LEFT JOIN \(target.table) AS t ON t.\(target.keyColumn) = +p.t WHERE true ORDER BY 1, 2 "
            + "ON CONFLICT DO UPDATE SET \(generationColumn) = excluded.\(generationColumn)"
    }

    /// After a failed write, only: the first staged object (by slot) with a to-one key that names no
    /// row, and the first such relationship of it, among the self-references or the others. Nil when
    /// the entity has no relationship of that kind.
    func danglingToOneSQL(selfReferences: Bool) -> String? {
        let entity = entity
        let cases = entity.toOne.indices.filter { isSelfReference[$0] == selfReferences }.map { position in
            let target = schema.entities[schema.toOneTargets[index][position]]
            return "WHEN s.r\(position) IS NOT NULL AND NOT EXISTS "
                + "(SELECT 1 FROM \(target.table) AS t WHERE t.\(target.keyColumn) = +s.r\(position)) THEN \(position)"
        }
        guard !cases.isEmpty else { return nil }
        return "SELECT slot, relationship FROM (SELECT s.slot AS slot, CASE \(cases.joined(separator: " ")) END AS relationship "
            + "FROM \(stageTable) AS s) WHERE relationship IS NOT NULL ORDER BY slot LIMIT 1"
    }

    /// After a failed pair write, only: the first staged pair whose target key names no row.
    func danglingPairSQL(_ relationship: Int) -> String {
        let target = schema.entities[schema.manyToManyTargets[index][relationship]]
        return "SELECT p.slot, p.t FROM \(pairsTable(relationship)) AS p "
            + "WHERE NOT EXISTS (SELECT 1 FROM \(target.table) AS t WHERE t.\(target.keyColumn) = +p.t) ORDER BY p.rowid LIMIT 1"
    }
}
