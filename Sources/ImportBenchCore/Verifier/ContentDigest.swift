import ImportBenchSchema
import ImportBenchStore

/// A store's logical content, reduced to a fingerprint per table: rows by natural key, relationships
/// as the related objects' keys, never pks. Two stores with the same data have equal digests,
/// whatever order or strategy wrote them, provided both have the schema's tables and indexes (`shape`).
package struct ContentDigest: Equatable, Sendable, Codable {
    package struct Table: Equatable, Sendable, Codable {
        /// Entity name, or `entity.relationship` for a many-to-many set.
        package let name: String
        package let rows: Int
        package let hash: String
    }

    package let tables: [Table]
    /// Objects with each to-one relationship set (`entity.relationship`), so a verifier can name the
    /// relationship that lost links when rows were replaced rather than updated.
    package let links: [Link]

    package struct Link: Equatable, Sendable, Codable {
        package let name: String
        package let count: Int
    }

    /// The schema's tables and indexes as the store has them (`Schema.shape(of:)`), or as the schema
    /// creates them on the expected side (`Schema.ddlShape()`); nil: not read (a digest made by hand).
    /// Apart from `value`, so the digests in results and baselines stay those of the data alone.
    package let shape: StoreShape?

    /// A digest of given parts: `Schema.digest(of:)` and the expected content build them, a test may by hand.
    package init(tables: [Table], links: [Link] = [], shape: StoreShape? = nil) {
        self.tables = tables
        self.links = links
        self.shape = shape
    }

    /// Decodes a digest from another process; one without a shape (a bench from before it was read)
    /// decodes with none, which differs from every store's and is said so.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        tables = try container.decode([Table].self, forKey: .tables)
        links = try container.decode([Link].self, forKey: .links)
        shape = try container.decodeIfPresent(StoreShape.self, forKey: .shape)
    }

    /// What a stopped import's store is held to: its data and tables, without the indexes. An import
    /// may build its indexes only after its last batch (bulk), so a store it left midway lacks them
    /// until `--resume` finishes it; a finished run is always held to every index.
    package var withoutIndexes: ContentDigest {
        ContentDigest(tables: tables, links: links, shape: shape.map { StoreShape(tables: $0.tables, indexes: []) })
    }

    /// How many of the schema's indexes the store lacks or has otherwise, against `expected`.
    package func indexDifferences(from expected: ContentDigest) -> Int {
        guard let shape, let expectedShape = expected.shape else { return 0 }
        return expectedShape.indexes.filter { !shape.indexes.contains($0) }.count
    }

    /// One fingerprint for the whole content: its data alone, the shape left out.
    package var value: String {
        var hasher = DigestHasher()
        for table in tables {
            hasher.combine(.text(table.name))
            hasher.combine(.integer(Int64(table.rows)))
            hasher.combine(.text(table.hash))
        }
        return hasher.hex
    }

    package var rowCount: Int { tables.reduce(0) { $0 + $1.rows } }

    /// Rows of the entity tables alone: the objects, without many-to-many pairs.
    package var objectCount: Int { tables.filter { !$0.name.contains(".") }.reduce(0) { $0 + $1.rows } }

    /// One line per table or index of the schema's that the store lacks or has otherwise, per
    /// relationship that lost links and per table that differs from `expected`, in that order: the
    /// first name what a user must fix.
    package func differences(from expected: ContentDigest) -> [String] {
        var lines: [String] = []
        switch (shape, expected.shape) {
        case (let shape?, let expectedShape?): lines += shape.differences(from: expectedShape)
        case (nil, _?): lines.append("the store's tables and indexes were not read")
        case (_?, nil): lines.append("the store's tables and indexes were read, but none were expected")
        case (nil, nil): break
        }
        // A table whose links changed differs in content too; saying so again adds nothing.
        var explained: Set<String> = []
        for link in expected.links {
            guard let actual = links.first(where: { $0.name == link.name }), actual.count != link.count else { continue }
            explained.insert(String(link.name.prefix { $0 != "." }))
            if actual.count < link.count {
                lines.append("relationship \(link.name) lost \(link.count - actual.count) of \(link.count) links")
            } else {
                lines.append("relationship \(link.name): \(actual.count) links, expected \(link.count)")
            }
        }
        for table in expected.tables {
            guard let actual = tables.first(where: { $0.name == table.name }) else {
                lines.append("\(table.name): missing")
                continue
            }
            let kind = table.name.contains(".") ? "relationship" : "table"
            if actual.rows < table.rows {
                lines.append("\(kind) \(table.name) lost \(table.rows - actual.rows) of \(table.rows) rows")
            } else if actual.rows != table.rows {
                lines.append("\(kind) \(table.name): \(actual.rows) rows, expected \(table.rows)")
            } else if actual.hash != table.hash && !explained.contains(table.name) {
                lines.append("\(kind) \(table.name): \(actual.rows) rows as expected, but their content differs")
            }
        }
        return lines
    }

    /// Hashes every row of each query; `queries` pairs a table name with SQL whose rows are in key order.
    /// `shape` is carried as given. `skippingUnpreparable` leaves out a query SQLite cannot prepare
    /// (over a table or column `shape` says is missing) instead of failing: `differences` names it.
    static func compute(
        on connection: StoreConnection, queries: [(name: String, sql: String)], linkQueries: [(name: String, sql: String)] = [],
        shape: StoreShape? = nil, skippingUnpreparable: Bool = false
    ) throws -> ContentDigest {
        func prepare(_ sql: String) throws -> StoreStatement? {
            do {
                return try connection.prepare(sql)
            } catch {
                if skippingUnpreparable { return nil }
                throw error
            }
        }
        var tables: [Table] = []
        for (name, sql) in queries {
            guard let statement = try prepare(sql) else { continue }
            defer { statement.reset() }
            var hasher = DigestHasher()
            var rows = 0
            let columns = statement.columnCount
            while try statement.step() {
                for column in 0..<columns { hasher.combine(statement.value(at: column)) }
                hasher.endRow()
                rows += 1
            }
            tables.append(Table(name: name, rows: rows, hash: hasher.hex))
        }
        let links = try linkQueries.compactMap { name, sql in
            try prepare(sql).map { Link(name: name, count: Int(try $0.scalarInt64() ?? 0)) }
        }
        return ContentDigest(tables: tables, links: links, shape: shape)
    }
}

extension Schema {
    /// Digest queries over a store this schema created: foreign keys read back as the targets' keys.
    var storeDigestQueries: [(name: String, sql: String)] {
        var queries: [(name: String, sql: String)] = []
        for (entityIndex, entity) in entities.enumerated() {
            var columns = ["e.\(entity.keyColumn)"] + entity.attributes.map { "e.\(quoted($0.name))" }
            var joins: [String] = []
            for (index, relationship) in entity.toOne.enumerated() {
                let target = entities[toOneTargets[entityIndex][index]]
                let alias = "r\(index)"
                columns.append("\(alias).\(target.keyColumn)")
                joins.append("LEFT JOIN \(target.table) AS \(alias) ON \(alias).pk = e.\(quoted(relationship.column))")
            }
            queries.append(
                (entity.name, "SELECT \(columns.joined(separator: ", ")) FROM \(entity.table) AS e \(joins.joined(separator: " ")) ORDER BY 1"))
            for (index, relationship) in entity.manyToMany.enumerated() {
                let target = entities[manyToManyTargets[entityIndex][index]]
                let sql =
                    "SELECT s.\(entity.keyColumn), t.\(target.keyColumn) FROM \(quoted(entity.joinTable(relationship))) AS j "
                    + "JOIN \(entity.table) AS s ON s.pk = j.source_pk JOIN \(target.table) AS t ON t.pk = j.target_pk ORDER BY 1, 2"
                queries.append(("\(entity.name).\(relationship.name)", sql))
            }
        }
        return queries
    }

    /// Per to-one relationship, `SELECT count(*)` of the rows where `condition(relationship)` holds.
    func linkQueries(_ condition: (ToOneRelationship) -> String) -> [(name: String, sql: String)] {
        entities.flatMap { entity in
            entity.toOne.map { relationship in
                ("\(entity.name).\(relationship.name)", "SELECT count(*) FROM \(entity.table) WHERE \(condition(relationship))")
            }
        }
    }

    /// Computes the digest of a store created from this schema, with what it has of the schema's
    /// tables and indexes. A table or column it lacks is a difference, not a failure to digest.
    package func digest(of store: StoreConnection) throws -> ContentDigest {
        let expected = try ddlShape()
        let shape = try StoreShape.read(store, as: expected)
        return try ContentDigest.compute(
            on: store, queries: storeDigestQueries, linkQueries: linkQueries { "\(quoted($0.column)) IS NOT NULL" },
            shape: shape, skippingUnpreparable: shape.tables != expected.tables)
    }
}
