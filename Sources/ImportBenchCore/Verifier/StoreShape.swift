import ImportBenchSchema
import ImportBenchStore

/// The tables and indexes a schema's DDL creates, as a store holds them: a strategy that drops its
/// indexes to load faster must leave every one as `Schema.ddl` made it, or its store answers queries
/// slowly, or takes duplicate keys, after the run. Only what the DDL creates is read: objects of a
/// store's own (bench's `importbench_*` ledger tables, an index a user's strategy adds, an extra
/// column) are never differences.
package struct StoreShape: Equatable, Sendable, Codable {
    /// A table, with those of the schema's columns it has (names only, in the schema's order).
    package struct Table: Equatable, Sendable, Codable {
        /// As the schema spells it.
        package let name: String
        /// The schema's columns the store has: one missing is a difference, one added is not.
        package let columns: [String]
    }

    /// An index, or the index SQLite keeps for a table's primary key or UNIQUE constraint: on which
    /// table, over which columns in order, and whether it enforces uniqueness over every row.
    package struct Index: Equatable, Sendable, Codable {
        /// As the schema spells it; SQLite names a constraint's index `sqlite_autoindex_<table>_<n>`.
        package let name: String
        /// The table it is on: an index of the schema's name on another table is a difference.
        package let table: String
        /// Key columns in order, each with `DESC` or its collation when not the default
        /// (`<expression>` for an expression).
        package let columns: [String]
        /// Whether it refuses a second row with the same key: what `ON CONFLICT(key)` and every lookup by key rely on.
        package let unique: Bool
        /// Covers only the rows its WHERE clause keeps, so its uniqueness holds only there.
        package let partial: Bool
        /// `PRAGMA index_list`'s origin: `c` (CREATE INDEX), `u` (UNIQUE constraint), `pk` (primary key).
        package let origin: String
    }

    /// The schema's tables, in the schema's order.
    package let tables: [Table]
    /// The schema's indexes, those SQLite keeps for its constraints included, in the schema's order.
    package let indexes: [Index]

    /// One line per table or index of `expected` that this shape lacks or has otherwise, saying what
    /// the user must fix; nothing when the shapes are equal.
    package func differences(from expected: StoreShape) -> [String] {
        var lines: [String] = []
        var missingTables: Set<String> = []
        for table in expected.tables {
            guard let found = tables.first(where: { $0.name == table.name }) else {
                lines.append("table \(table.name) is missing")
                missingTables.insert(table.name)
                continue
            }
            let missing = table.columns.filter { !found.columns.contains($0) }
            if !missing.isEmpty {
                lines.append("table \(table.name) has no column\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", "))")
            } else if found != table {
                lines.append("table \(table.name) differs from the schema's")
            }
        }
        for index in expected.indexes {
            let label = index.label
            guard let found = indexes.first(where: { $0.name == index.name }) else {
                // A missing table's indexes went with it: the table's line says it.
                if !missingTables.contains(index.table) { lines.append("\(label) is missing") }
                continue
            }
            let before = lines.count
            if found.table != index.table || found.columns != index.columns {
                lines.append("\(label) is on \(found.table)(\(found.columns.joined(separator: ", "))) instead")
            }
            if index.unique && !found.unique {
                lines.append("\(label) is not unique")
            } else if !index.unique && found.unique {
                lines.append("\(label) is unique, and the schema's is not")
            }
            if found.partial && !index.partial {
                lines.append("\(label) is partial: its WHERE clause leaves rows out")
            } else if !found.partial && index.partial {
                lines.append("\(label) is not partial, and the schema's is")
            }
            if lines.count == before && found != index { lines.append("\(label) differs from the schema's") }
        }
        if lines.isEmpty && self != expected { lines.append("the store's tables and indexes differ from the schema's") }
        return lines
    }
}

extension StoreShape.Index {
    /// How a difference names it: `index user_id_unique on user(id)`, or the constraint SQLite made it for.
    var label: String {
        let on = "\(table)(\(columns.joined(separator: ", ")))"
        switch origin {
        case "pk": return "primary key \(on)"
        case "u": return "UNIQUE constraint \(name) on \(on)"
        default: return "index \(name) on \(on)"
        }
    }
}

extension StoreShape {
    /// Every table of `connection` but SQLite's own, in creation order, each with all its columns
    /// and then its indexes in creation order: what a schema's DDL made of an empty store.
    static func read(_ connection: StoreConnection) throws -> StoreShape {
        let reader = ShapeReader(connection: connection)
        var tables: [Table] = []
        var indexes: [Index] = []
        for name in try reader.strings(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid")
        {
            tables.append(Table(name: name, columns: try reader.columns(of: name)))
            indexes += try reader.indexes(of: name)
        }
        return StoreShape(tables: tables, indexes: indexes)
    }

    /// What `connection`'s store has of `expected`'s tables and indexes, in `expected`'s order and
    /// spelling (SQLite's names are case-insensitive), and nothing else: equal to `expected` when
    /// the store has them all as they are there.
    static func read(_ connection: StoreConnection, as expected: StoreShape) throws -> StoreShape {
        let reader = ShapeReader(connection: connection)
        var tables: [Table] = []
        var found: [String: Index] = [:]
        for table in expected.tables {
            guard
                let name = try reader.strings(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?1 COLLATE NOCASE", table.name
                ).first
            else { continue }
            let columns = Set(try reader.columns(of: name).map { $0.lowercased() })
            tables.append(Table(name: table.name, columns: table.columns.filter { columns.contains($0.lowercased()) }))
            for index in try reader.indexes(of: name) { found[index.name.lowercased()] = index.on(table.name) }
        }
        // An index of the schema's name on another table than the schema's.
        for index in expected.indexes where found[index.name.lowercased()] == nil {
            let owners = try reader.strings(
                "SELECT tbl_name FROM sqlite_master WHERE type = 'index' AND name = ?1 COLLATE NOCASE", index.name)
            for owner in owners {
                for other in try reader.indexes(of: owner) where other.name.lowercased() == index.name.lowercased() {
                    found[index.name.lowercased()] = other
                }
            }
        }
        let indexes = expected.indexes.compactMap { index in found[index.name.lowercased()].map { $0.spelled(as: index) } }
        return StoreShape(tables: tables, indexes: indexes)
    }
}

extension StoreShape.Index {
    /// The same index, its table named as the schema names it.
    fileprivate func on(_ table: String) -> StoreShape.Index {
        StoreShape.Index(name: name, table: table, columns: columns, unique: unique, partial: partial, origin: origin)
    }

    /// The same index with `expected`'s spelling of its name, table and columns where they are the same but for case.
    fileprivate func spelled(as expected: StoreShape.Index) -> StoreShape.Index {
        let sameColumns = columns.map { $0.lowercased() } == expected.columns.map { $0.lowercased() }
        return StoreShape.Index(
            name: expected.name, table: table.lowercased() == expected.table.lowercased() ? expected.table : table,
            columns: sameColumns ? expected.columns : columns, unique: unique, partial: partial, origin: origin)
    }
}

/// The catalogue queries behind `StoreShape.read`: `sqlite_master` and the table-valued pragmas,
/// names bound as parameters so no identifier needs quoting.
private struct ShapeReader {
    let connection: StoreConnection

    /// The first column of every row of `sql`, text only, with `argument` bound to `?1` when given.
    func strings(_ sql: String, _ argument: String? = nil) throws -> [String] {
        try rows(sql, argument).compactMap { row in
            if case .text(let text) = row.first { return text }
            return nil
        }
    }

    func rows(_ sql: String, _ argument: String?) throws -> [[StoreValue]] {
        let statement = try connection.prepare(sql)
        defer { statement.reset() }
        if let argument { statement.bind(argument, at: 1) }
        var rows: [[StoreValue]] = []
        while try statement.step() { rows.append(statement.row()) }
        return rows
    }

    /// The table's column names, in order (`PRAGMA table_info`).
    func columns(of table: String) throws -> [String] {
        try strings("SELECT name FROM pragma_table_info(?1) ORDER BY cid", table)
    }

    /// The table's indexes in creation order (`PRAGMA index_list` lists the newest first), with their
    /// key columns (`PRAGMA index_xinfo`).
    func indexes(of table: String) throws -> [StoreShape.Index] {
        let list = try rows(#"SELECT name, "unique", origin, partial FROM pragma_index_list(?1) ORDER BY seq DESC"#, table)
        return try list.compactMap { row -> StoreShape.Index? in
            guard row.count == 4, case .text(let name) = row[0] else { return nil }
            let keys = try rows("SELECT name, desc, coll FROM pragma_index_xinfo(?1) WHERE key = 1 ORDER BY seqno", name)
            let columns = keys.map { key -> String in
                var column = "<expression>"
                if case .text(let name) = key.first { column = name }
                if key.count > 1, key[1] == .integer(1) { column += " DESC" }
                if key.count > 2, case .text(let collation) = key[2], collation.uppercased() != "BINARY" { column += " COLLATE \(collation)" }
                return column
            }
            var origin = "c"
            if case .text(let text) = row[2] { origin = text }
            return StoreShape.Index(
                name: name, table: table, columns: columns, unique: row[1] == .integer(1), partial: row[3] == .integer(1),
                origin: origin)
        }
    }
}

extension Schema {
    /// The tables and indexes `ddl` creates, read back from a private in-memory store exactly as a
    /// store's are, so the verifier follows any change to the DDL without a copy of its own.
    package func ddlShape() throws -> StoreShape {
        // Never traced: bench's reading, not an import's work.
        let connection = try StoreConnection(path: ":memory:", tracing: .never)
        for statement in ddl { try connection.execute(statement) }
        return try StoreShape.read(connection)
    }

    /// What `store` has of the tables and indexes `ddl` creates, comparable with `ddlShape()`.
    package func shape(of store: StoreConnection) throws -> StoreShape {
        try StoreShape.read(store, as: ddlShape())
    }
}
