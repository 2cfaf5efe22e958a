import Foundation
import ImportBenchPayload
import ImportBenchSchema
import ImportBenchStore
import ImportBenchStrategies

/// What a store must hold after importing a payload, worked out from its records alone, with no
/// strategy code and no pks: each entity's rows keyed by natural key (last occurrence wins),
/// relationships as target keys. Where the payload lists an object's children or set completely,
/// the payload's set replaces the stored one, and what the removal cascades to follows the schema's
/// delete rules. Kept in a scratch SQLite file so memory does not grow with the payload.
package struct ExpectedContent: Sendable {
    package let digest: ContentDigest
    /// Object occurrences in the measured payload, repeats included.
    package let occurrences: Int
    /// Distinct (entity, key) objects the store must hold afterwards.
    package let uniqueObjects: Int
    /// References given by key only in the measured payload, each of which costs naive a SELECT.
    package let keyOnlyReferences: Int
    /// What the measured payload must do to the objects it names.
    package let outcome: RefreshOutcome

    /// Reads `preload` (when given) and then the measured payload, once each; `scratchPath` is created,
    /// used and removed.
    package static func build(
        schema: Schema, preload: (any RecordReader)? = nil, reader: any RecordReader, scratchPath: String
    ) throws -> ExpectedContent {
        try withReferenceStore(schema: schema, at: scratchPath) { connection, loader in
            if let preload {
                try connection.inTransaction { _ = try loader.load(preload, mode: .whole, markingTouched: false) }
                for entity in schema.entities {
                    try connection.execute("CREATE TABLE \(entity.beforeTable) AS SELECT * FROM \(entity.table)")
                }
            }
            let counts = try connection.inTransaction { try loader.load(reader, mode: .whole, markingTouched: true) }
            try connection.inTransaction { try schema.replaceListedSets(in: connection) }
            try schema.checkReferences(in: connection)
            try connection.inTransaction { try schema.removeUnlistedChildren(in: connection) }
            let outcome = try schema.refreshOutcome(in: connection, preloaded: preload != nil)
            let digest = try schema.referenceDigest(of: connection)
            let uniqueObjects = digest.objectCount
            return ExpectedContent(
                digest: digest, occurrences: counts.occurrences, uniqueObjects: uniqueObjects,
                keyOnlyReferences: counts.keyOnlyReferences, outcome: outcome)
        }
    }

    /// Runs `body` on a fresh scratch file holding the reference tables; the file is removed after.
    private static func withReferenceStore<T>(
        schema: Schema, at scratchPath: String, _ body: (StoreConnection, ReferenceLoader) throws -> T
    ) throws -> T {
        try? FileManager.default.removeItem(atPath: scratchPath)
        defer { try? FileManager.default.removeItem(atPath: scratchPath) }
        let connection = try StoreConnection(path: scratchPath)
        try connection.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
        for statement in schema.referenceDDL { try connection.execute(statement) }
        return try body(connection, try ReferenceLoader(schema: schema, connection: connection))
    }
}

/// What part of each occurrence a load writes: the committed state of a two-pass import is its
/// objects alone, then the relationships of the batches its second pass committed.
package enum ReferenceLoadMode: Sendable {
    case whole
    case attributesOnly
    case relationshipsOnly
}

extension ExpectedContent {
    /// The digest a store must have after an import that stopped early: the preload, then each load
    /// in turn (for instance a `PrefixRecordReader` over the batches that were committed), with sets
    /// only added to, since unlisted children are removed after the last batch.
    package static func committedDigest(
        schema: Schema, preload: (any RecordReader)?, loads: [(reader: any RecordReader, mode: ReferenceLoadMode)],
        scratchPath: String
    ) throws -> ContentDigest {
        try withReferenceStore(schema: schema, at: scratchPath) { connection, loader in
            try connection.inTransaction {
                if let preload { _ = try loader.load(preload, mode: .whole, markingTouched: false) }
                for load in loads { _ = try loader.load(load.reader, mode: load.mode, markingTouched: false) }
            }
            return try schema.referenceDigest(of: connection)
        }
    }
}

/// How a measured import must change the objects its payload names.
package struct RefreshOutcome: Equatable, Sendable {
    /// Objects not stored before.
    package var inserted = 0
    /// Objects stored before whose attributes or to-one relationships change.
    package var updated = 0
    /// Objects stored before and named again with the same content.
    package var unchanged = 0

    package init(inserted: Int = 0, updated: Int = 0, unchanged: Int = 0) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
    }
}

/// Writes records into the reference tables: last occurrence wins, save the members it leaves
/// out, which keep what an earlier occurrence or the preload gave (RFC 7396); sets unioned.
private struct ReferenceLoader {
    let statements: ReferenceStatements
    let joins: [[StoreStatement]]
    /// The measured payload's pairs, kept apart until its sets replace the stored ones.
    let listedJoins: [[StoreStatement]]
    let touch: [StoreStatement]
    /// Keys of the measured payload's objects named with their children listed (not only as a quoted copy).
    let list: [StoreStatement]

    init(schema: Schema, connection: StoreConnection) throws {
        statements = ReferenceStatements(schema: schema, connection: connection)
        joins = try schema.entities.map { entity in
            try entity.manyToMany.map { try connection.prepare(entity.referenceJoinSQL(into: entity.joinTable($0))) }
        }
        listedJoins = try schema.entities.map { entity in
            try entity.manyToMany.map { try connection.prepare(entity.referenceJoinSQL(into: entity.listedJoinTable($0))) }
        }
        touch = try schema.entities.map {
            try connection.prepare("INSERT INTO \($0.touchedTable) (key) VALUES (?) ON CONFLICT DO NOTHING")
        }
        list = try schema.entities.map {
            try connection.prepare("INSERT INTO \($0.listingTable) (key) VALUES (?) ON CONFLICT DO NOTHING")
        }
    }

    func load(
        _ reader: any RecordReader, mode: ReferenceLoadMode, markingTouched: Bool
    ) throws -> (occurrences: Int, keyOnlyReferences: Int) {
        var occurrences = 0
        var keyOnlyReferences = 0
        while let unit = try reader.nextUnit() {
            // A stop (SIGTERM, Ctrl-C) is honoured here too, not only between imports: this reads the whole payload.
            try ImportInterruption.throwIfRequested()
            for occurrence in unit.occurrences {
                occurrences += 1
                for reference in occurrence.toOne where reference?.isKeyOnly == true { keyOnlyReferences += 1 }
                for references in occurrence.manyToMany {
                    for reference in references where reference.isKeyOnly { keyOnlyReferences += 1 }
                }
                try write(occurrence, mode: mode)
                if markingTouched {
                    touch[occurrence.entity].bind(occurrence.key, at: 1)
                    try touch[occurrence.entity].execute()
                    if occurrence.listsChildren {
                        list[occurrence.entity].bind(occurrence.key, at: 1)
                        try list[occurrence.entity].execute()
                    }
                }
                guard mode != .attributesOnly else { continue }
                for (relationship, references) in occurrence.manyToMany.enumerated() {
                    for reference in references {
                        let join = (markingTouched ? listedJoins : joins)[occurrence.entity][relationship]
                        join.bind(occurrence.key, at: 1)
                        join.bind(reference.key, at: 2)
                        try join.execute()
                    }
                }
            }
        }
        return (occurrences, keyOnlyReferences)
    }

    private func write(_ occurrence: RecordOccurrence, mode: ReferenceLoadMode) throws {
        var index: Int32 = 1
        switch mode {
        case .whole, .attributesOnly:
            guard let statement = try statements.statement(occurrence, mode: mode) else { return }
            statement.bind(occurrence.key, at: index)
            for value in occurrence.attributes {
                index += 1
                statement.bind(value, at: index)
            }
            if mode == .whole {
                for reference in occurrence.toOne {
                    index += 1
                    statement.bind(reference?.key ?? .null, at: index)
                }
            }
            try statement.execute()
        case .relationshipsOnly:
            guard let statement = try statements.statement(occurrence, mode: mode) else { return }
            for reference in occurrence.toOne {
                statement.bind(reference?.key ?? .null, at: index)
                index += 1
            }
            statement.bind(occurrence.key, at: index)
            try statement.execute()
        }
    }
}

/// The reference tables' write for an entity, a load mode and the members an occurrence leaves
/// out, prepared on first use.
private final class ReferenceStatements {
    private struct Shape: Hashable {
        let entity: Int
        let mode: ReferenceLoadMode
        let absent: ColumnSet
    }

    private let schema: Schema
    private let connection: StoreConnection
    private var prepared: [Shape: StoreStatement?] = [:]

    init(schema: Schema, connection: StoreConnection) {
        self.schema = schema
        self.connection = connection
    }

    /// Nil when the occurrence leaves out everything the mode writes.
    func statement(_ occurrence: RecordOccurrence, mode: ReferenceLoadMode) throws -> StoreStatement? {
        let shape = Shape(entity: occurrence.entity, mode: mode, absent: occurrence.absent)
        if let statement = prepared[shape] { return statement }
        let entity = schema.entities[occurrence.entity]
        let sql: String?
        switch mode {
        case .whole: sql = entity.referenceUpsertSQL(absent: occurrence.absent)
        case .attributesOnly: sql = entity.referenceAttributesUpsertSQL(absent: occurrence.absent)
        case .relationshipsOnly: sql = entity.referenceRelationshipsUpdateSQL(absent: occurrence.absent)
        }
        let statement = try sql.map(connection.prepare)
        prepared[shape] = .some(statement)
        return statement
    }
}

extension Schema {
    /// Tables keyed by natural key, relationships held as target keys. The bookkeeping tables
    /// (objects named, objects listing their children, pairs listed, the state before) are prefixed
    /// `importbench_`, which no entity's name may start with, so none meets an entity's table.
    fileprivate var referenceDDL: [String] {
        entities.enumerated().flatMap { entityIndex, entity -> [String] in
            var columns = ["\(entity.keyColumn) \(entity.key.type.declaration) PRIMARY KEY"]
            columns += entity.attributes.map { "\(quoted($0.name)) \($0.type.declaration)" }
            for (index, relationship) in entity.toOne.enumerated() {
                let target = entities[toOneTargets[entityIndex][index]]
                columns.append("\(quoted(relationship.name + "_key")) \(target.key.type.declaration)")
            }
            var statements = [
                "CREATE TABLE \(entity.table) (\(columns.joined(separator: ", ")))",
                "CREATE TABLE \(entity.touchedTable) (key \(entity.key.type.declaration) PRIMARY KEY)",
                "CREATE TABLE \(entity.listingTable) (key \(entity.key.type.declaration) PRIMARY KEY)",
            ]
            for (index, relationship) in entity.manyToMany.enumerated() {
                let target = entities[manyToManyTargets[entityIndex][index]]
                for table in [entity.joinTable(relationship), entity.listedJoinTable(relationship)] {
                    statements.append(
                        "CREATE TABLE \(quoted(table)) (source_key \(entity.key.type.declaration), "
                            + "target_key \(target.key.type.declaration), PRIMARY KEY (source_key, target_key)) WITHOUT ROWID")
                }
            }
            return statements
        }
    }

    /// The reference tables' digest, comparable with a store's `digest(of:)`: the shape every store
    /// must have is the schema's own (`ddlShape()`), not the reference tables', which are laid out otherwise.
    fileprivate func referenceDigest(of connection: StoreConnection) throws -> ContentDigest {
        try ContentDigest.compute(
            on: connection, queries: referenceDigestQueries,
            linkQueries: linkQueries { "\(quoted($0.name + "_key")) IS NOT NULL" }, shape: ddlShape())
    }

    fileprivate var referenceDigestQueries: [(name: String, sql: String)] {
        var queries: [(name: String, sql: String)] = []
        for entity in entities {
            let columns =
                [entity.keyColumn] + entity.attributes.map { quoted($0.name) }
                + entity.toOne.map { quoted($0.name + "_key") }
            queries.append((entity.name, "SELECT \(columns.joined(separator: ", ")) FROM \(entity.table) ORDER BY 1"))
            for relationship in entity.manyToMany {
                queries.append(
                    (
                        "\(entity.name).\(relationship.name)",
                        "SELECT source_key, target_key FROM \(quoted(entity.joinTable(relationship))) ORDER BY 1, 2"
                    ))
            }
        }
        return queries
    }

    /// Compares each object the measured payload names with its state after the preload.
    fileprivate func refreshOutcome(in connection: StoreConnection, preloaded: Bool) throws -> RefreshOutcome {
        var outcome = RefreshOutcome()
        for entity in entities {
            let touched = entity.touchedTable
            let count = try connection.prepare("SELECT count(*) FROM \(touched)").scalarInt64() ?? 0
            guard preloaded else {
                outcome.inserted += Int(count)
                continue
            }
            let before = entity.beforeTable
            let stored =
                try connection.prepare(
                    "SELECT count(*) FROM \(touched) AS t JOIN \(before) AS b ON b.\(entity.keyColumn) = t.key"
                ).scalarInt64() ?? 0
            let columns = entity.attributes.map { quoted($0.name) } + entity.toOne.map { quoted($0.name + "_key") }
            let differs = columns.isEmpty ? "0" : columns.map { "e.\($0) IS NOT b.\($0)" }.joined(separator: " OR ")
            let changed =
                try connection.prepare(
                    "SELECT count(*) FROM \(touched) AS t JOIN \(before) AS b ON b.\(entity.keyColumn) = t.key "
                        + "JOIN \(entity.table) AS e ON e.\(entity.keyColumn) = t.key WHERE \(differs)"
                ).scalarInt64() ?? 0
            outcome.inserted += Int(count - stored)
            outcome.updated += Int(changed)
            outcome.unchanged += Int(stored - changed)
        }
        return outcome
    }

    /// The measured payload's sets replace the stored sets of the objects it names with their sets
    /// (not only as a quoted copy), where it lists them completely; elsewhere its pairs are added.
    fileprivate func replaceListedSets(in connection: StoreConnection) throws {
        for entity in entities {
            for relationship in entity.manyToMany {
                let table = quoted(entity.joinTable(relationship))
                if relationship.listing == .complete {
                    try connection.execute(
                        "DELETE FROM \(table) WHERE source_key IN (SELECT key FROM \(entity.listingTable))")
                }
                try connection.execute(
                    "INSERT OR IGNORE INTO \(table) SELECT source_key, target_key FROM \(quoted(entity.listedJoinTable(relationship)))")
            }
        }
    }

    /// Parents the measured payload names with their children lose the stored children it does not
    /// list (a quoted copy lists none, so keeps them); then what those
    /// removals cascade to, by the store's delete rules: owned children go, other links become NULL,
    /// pairs go. Every reference was checked before, so a target missing now was removed here.
    fileprivate func removeUnlistedChildren(in connection: StoreConnection) throws {
        let unchanged = connection.totalChanges
        for (entityIndex, entity) in entities.enumerated() {
            for (index, relationship) in entity.toOne.enumerated() where relationship.replacesChildren {
                let parent = entities[toOneTargets[entityIndex][index]]
                try connection.execute(
                    "DELETE FROM \(entity.table) WHERE \(quoted(relationship.name + "_key")) IN "
                        + "(SELECT key FROM \(parent.listingTable)) "
                        + "AND \(entity.keyColumn) NOT IN (SELECT key FROM \(entity.touchedTable))")
            }
        }
        // Nothing removed (every import into an empty store): nothing to cascade, no table to scan.
        guard connection.totalChanges != unchanged else { return }
        func missing(_ column: String, from target: Entity) -> String {
            "\(column) IS NOT NULL AND \(column) NOT IN (SELECT \(target.keyColumn) FROM \(target.table))"
        }
        var cascading = true
        while cascading {
            let before = connection.totalChanges
            for (entityIndex, entity) in entities.enumerated() {
                for (index, relationship) in entity.toOne.enumerated() where relationship.owner {
                    let parent = entities[toOneTargets[entityIndex][index]]
                    try connection.execute(
                        "DELETE FROM \(entity.table) WHERE \(missing(quoted(relationship.name + "_key"), from: parent))")
                }
            }
            cascading = connection.totalChanges != before
        }
        for (entityIndex, entity) in entities.enumerated() {
            for (index, relationship) in entity.toOne.enumerated() where !relationship.owner {
                let column = quoted(relationship.name + "_key")
                let target = entities[toOneTargets[entityIndex][index]]
                try connection.execute("UPDATE \(entity.table) SET \(column) = NULL WHERE \(missing(column, from: target))")
            }
            for (index, relationship) in entity.manyToMany.enumerated() {
                let target = entities[manyToManyTargets[entityIndex][index]]
                try connection.execute(
                    "DELETE FROM \(quoted(entity.joinTable(relationship))) "
                        + "WHERE \(missing("source_key", from: entity)) OR \(missing("target_key", from: target))")
            }
        }
    }

    /// Every reference must name an object of the payload; the first that does not is reported.
    fileprivate func checkReferences(in connection: StoreConnection) throws {
        for (entityIndex, entity) in entities.enumerated() {
            for (index, relationship) in entity.toOne.enumerated() {
                let target = entities[toOneTargets[entityIndex][index]]
                let column = quoted(relationship.name + "_key")
                let sql =
                    "SELECT e.\(entity.keyColumn), e.\(column) FROM \(entity.table) AS e WHERE e.\(column) IS NOT NULL "
                    + "AND NOT EXISTS (SELECT 1 FROM \(target.table) AS t WHERE t.\(target.keyColumn) = e.\(column)) LIMIT 1"
                try reportDangling(sql, on: connection, source: entity.name, relationship: relationship.name, target: target.name)
            }
            for (index, relationship) in entity.manyToMany.enumerated() {
                let target = entities[manyToManyTargets[entityIndex][index]]
                let sql =
                    "SELECT j.source_key, j.target_key FROM \(quoted(entity.joinTable(relationship))) AS j "
                    + "WHERE NOT EXISTS (SELECT 1 FROM \(target.table) AS t WHERE t.\(target.keyColumn) = j.target_key) LIMIT 1"
                try reportDangling(sql, on: connection, source: entity.name, relationship: relationship.name, target: target.name)
            }
        }
    }

    private func reportDangling(_ sql: String, on connection: StoreConnection, source: String, relationship: String, target: String) throws {
        let statement = try connection.prepare(sql)
        defer { statement.reset() }
        if try statement.step() {
            throw StrategyError.danglingReference(
                source: source, sourceKey: statement.value(at: 0), relationship: relationship,
                target: target, targetKey: statement.value(at: 1))
        }
    }
}

extension Entity {
    /// Last occurrence wins, as every strategy must make it.
    /// Key, attributes and relationships; a stored row keeps the columns in `absent` (attributes,
    /// then to-one relationships, that the occurrence left out).
    fileprivate func referenceUpsertSQL(absent: ColumnSet) -> String {
        let columns = [keyColumn] + attributes.map { quoted($0.name) } + toOne.map { quoted($0.name + "_key") }
        let assignments = columns.dropFirst().enumerated().filter { !absent.contains($0.offset) }.map { "\($0.element) = excluded.\($0.element)" }
        let conflict = assignments.isEmpty ? "DO NOTHING" : "DO UPDATE SET \(assignments.joined(separator: ", "))"
        return "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", "))) "
            + "ON CONFLICT(\(keyColumn)) \(conflict)"
    }

    /// Key and attributes only, leaving a stored row's relationships as they are, and the attributes in `absent`.
    fileprivate func referenceAttributesUpsertSQL(absent: ColumnSet) -> String {
        let columns = [keyColumn] + attributes.map { quoted($0.name) }
        let assignments = columns.dropFirst().enumerated().filter { !absent.contains($0.offset) }.map { "\($0.element) = excluded.\($0.element)" }
        let conflict = assignments.isEmpty ? "DO NOTHING" : "DO UPDATE SET \(assignments.joined(separator: ", "))"
        return "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", "))) "
            + "ON CONFLICT(\(keyColumn)) \(conflict)"
    }

    /// The to-one relationships of a stored row, but those in `absent`; the key is the last
    /// parameter (numbered, so every relationship is still bound in order). Nil when none is left.
    fileprivate func referenceRelationshipsUpdateSQL(absent: ColumnSet) -> String? {
        let assignments = toOne.enumerated().filter { !absent.contains(attributes.count + $0.offset) }
            .map { "\(quoted($0.element.name + "_key")) = ?\($0.offset + 1)" }
        guard !assignments.isEmpty else { return nil }
        return "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE \(keyColumn) = ?\(toOne.count + 1)"
    }

    /// The keys of the measured payload's objects (quoted).
    fileprivate var touchedTable: String { quoted("importbench_touched_" + name) }
    /// The keys of those named with their children listed, not only as a quoted copy (quoted).
    fileprivate var listingTable: String { quoted("importbench_listing_" + name) }
    /// The table as the preload left it (quoted).
    fileprivate var beforeTable: String { quoted("importbench_before_" + name) }
    /// The measured payload's pairs of `relationship`, kept apart until they replace the stored ones.
    fileprivate func listedJoinTable(_ relationship: ManyToManyRelationship) -> String { "importbench_listed_" + joinTable(relationship) }

    fileprivate func referenceJoinSQL(into table: String) -> String {
        "INSERT INTO \(quoted(table)) (source_key, target_key) VALUES (?, ?) ON CONFLICT DO NOTHING"
    }
}
