import Foundation
import ImportBenchCore
import ImportBenchPayload
import ImportBenchSchema
import ImportBenchStore
import ImportBenchStrategies
import Testing

/// What a strategy may break of the schema's indexes, picked from the store's catalogue as
/// `Schema.ddl` made it, never by a name spelled here, so the tests follow any change to the DDL.
enum IndexBreakage: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// An index on a to-one foreign key dropped.
    case foreignKeyIndexDropped
    /// The index on a join table's target dropped.
    case joinTargetIndexDropped
    /// The natural key's unique index replaced by a plain one of the same name.
    case keyIndexMadePlain

    var testDescription: String { rawValue }

    /// The index it breaks: name, table and key columns, read from `store`.
    func victim(in store: StoreConnection, schema: Schema) throws -> (name: String, table: String, columns: [String]) {
        let entities = schema.entities.map { "'\($0.name)'" }.joined(separator: ", ")
        let joinTables = schema.entities.flatMap { entity in entity.manyToMany.map { "'\(entity.joinTable($0))'" } }
        let condition: String
        switch self {
        case .foreignKeyIndexDropped: condition = "sql NOT LIKE 'CREATE UNIQUE%' AND tbl_name IN (\(entities))"
        case .joinTargetIndexDropped: condition = "tbl_name IN (\(joinTables.joined(separator: ", ")))"
        case .keyIndexMadePlain: condition = "sql LIKE 'CREATE UNIQUE%' AND tbl_name = '\(schema.entities[0].name)'"
        }
        let names = try StoreShapeTests.texts(
            store, "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND \(condition) ORDER BY name LIMIT 1")
        guard let name = names.first else { throw ShapeTestError("the schema has no index to break for \(self)") }
        let table = try StoreShapeTests.texts(store, "SELECT tbl_name FROM sqlite_master WHERE name = '\(name)'")
        let columns = try StoreShapeTests.texts(store, "SELECT name FROM pragma_index_info('\(name)') ORDER BY seqno")
        return (name, table.first ?? "", columns)
    }

    /// The strategy that breaks it.
    var strategy: any ImportStrategy.Type {
        switch self {
        case .foreignKeyIndexDropped: ForeignKeyIndexDroppingUpsert.self
        case .joinTargetIndexDropped: JoinTargetIndexDroppingUpsert.self
        case .keyIndexMadePlain: KeyIndexFlatteningUpsert.self
        }
    }

    /// Breaks it in `store`.
    func apply(to store: StoreConnection, schema: Schema) throws {
        let victim = try victim(in: store, schema: schema)
        try store.execute("DROP INDEX \"\(victim.name)\"")
        if self == .keyIndexMadePlain {
            let columns = victim.columns.map { "\"\($0)\"" }.joined(separator: ", ")
            try store.execute("CREATE INDEX \"\(victim.name)\" ON \"\(victim.table)\"(\(columns))")
        }
    }

    /// The line `differences` must start with.
    func difference(in store: StoreConnection, schema: Schema) throws -> String {
        let victim = try victim(in: store, schema: schema)
        let label = "index \(victim.name) on \(victim.table)(\(victim.columns.joined(separator: ", ")))"
        return self == .keyIndexMadePlain ? "\(label) is not unique" : "\(label) is missing"
    }
}

/// `upsert`, then the breakage after its last pass: a strategy that leaves the schema's indexes otherwise than it found them.
class IndexBreakingUpsert: ImportStrategy {
    class var name: String { "breaks-an-index" }
    class var summary: String { "test: upsert, then an index of the schema's broken" }
    class var breakage: IndexBreakage { .foreignKeyIndexDropped }

    private let upsert: UpsertStrategy
    private let context: StrategyContext

    required init(context: StrategyContext) throws {
        upsert = try UpsertStrategy(context: context)
        self.context = context
    }

    func write(_ batch: RecordBatch, pass: Int) throws { try upsert.write(batch, pass: pass) }

    func finishPass(_ pass: Int) throws {
        try upsert.finishPass(pass)
        try Self.breakage.apply(to: context.store, schema: context.schema)
    }
}

/// Drops a foreign key's index.
final class ForeignKeyIndexDroppingUpsert: IndexBreakingUpsert {
    override class var name: String { "drops-a-foreign-key-index" }
    override class var breakage: IndexBreakage { .foreignKeyIndexDropped }
}

/// Drops a join table's target index.
final class JoinTargetIndexDroppingUpsert: IndexBreakingUpsert {
    override class var name: String { "drops-a-join-target-index" }
    override class var breakage: IndexBreakage { .joinTargetIndexDropped }
}

/// Makes a natural key's unique index a plain one.
final class KeyIndexFlatteningUpsert: IndexBreakingUpsert {
    override class var name: String { "makes-a-key-index-plain" }
    override class var breakage: IndexBreakage { .keyIndexMadePlain }
}

/// A test's own failure, with what went wrong.
struct ShapeTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

@Suite("The verifier holds the schema's tables and indexes")
struct StoreShapeTests {
    /// The first column of every row of `sql`, as text.
    static func texts(_ store: StoreConnection, _ sql: String) throws -> [String] {
        let statement = try store.prepare(sql)
        defer { statement.reset() }
        var texts: [String] = []
        while try statement.step() {
            if case .text(let text) = statement.value(at: 0) { texts.append(text) }
        }
        return texts
    }

    /// The fixture imported by `upsert` into `directory`'s store, and what it must hold.
    private func importedFixture(in directory: TemporaryDirectory) throws -> (store: StoreConnection, expected: ContentDigest) {
        let scenario = FixtureScenario()
        let path = directory.path("store.sqlite")
        _ = try ImportRun(
            scenario: scenario, payloadPath: path + ".payload", method: UpsertStrategy.self, databasePath: path,
            options: RunOptions(batchSize: .occurrences(5))
        ).execute()
        let expected = try ExpectedContent.build(
            schema: scenario.schema, reader: ArrayRecordReader(scenario.units), scratchPath: directory.path("expected.sqlite"))
        return (try StoreConnection(path: path), expected.digest)
    }

    @Test(
        "a strategy that drops an index, or makes the key's unique index plain, is invalid, the index named first",
        arguments: IndexBreakage.allCases)
    func breakingStrategyIsInvalid(breakage: IndexBreakage) throws {
        let breaker = breakage.strategy
        let catalog = try StrategyCatalog.builtIn.adding([breaker])
        let outcome = try Benchmark(
            configuration: BenchmarkConfiguration(
                spec: RunSpec(scenario: ChatScenario().source, payload: .generated(scale: try #require(Scale(factor: 0.05)), seed: 5)),
                strategies: [try #require(catalog.strategy(named: "upsert")), try #require(catalog.strategy(named: breaker.name))],
                catalog: catalog)
        ).run()
        let upsert = try #require(outcome.results.first { $0.strategy == "upsert" })
        let broken = try #require(outcome.results.first { $0.strategy == breaker.name })
        #expect(upsert.valid, "\(upsert.differences)")
        #expect(!broken.valid)
        let store = try StoreConnection(path: ":memory:")
        for statement in ChatScenario().schema.ddl { try store.execute(statement) }
        #expect(broken.differences == [try breakage.difference(in: store, schema: ChatScenario().schema)])
        // The digest in the results is the data's alone, as before: the same rows, the same digest.
        #expect(broken.digest == upsert.digest)
    }

    @Test("every index the schema creates is missed when dropped, whatever else the store holds", arguments: FixtureScenario.schema.indexNames)
    func everyIndexIsHeld(index: String) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let (store, expected) = try importedFixture(in: directory)
        let table = try #require(try Self.texts(store, "SELECT tbl_name FROM sqlite_master WHERE name = '\(index)'").first)
        let columns = try Self.texts(store, "SELECT name FROM pragma_index_info('\(index)') ORDER BY seqno")
        // Objects of the store's own are no difference: bench's ledger, a user's index, table or column.
        try store.execute(
            """
            CREATE INDEX extra_post_title ON post(title); CREATE TABLE importbench_extra (x); CREATE TABLE extra (x);
            ALTER TABLE author ADD COLUMN extra TEXT
            """)
        let intact = try FixtureScenario.schema.digest(of: store)
        #expect(intact.differences(from: expected) == [])
        #expect(intact == expected)

        try store.execute("DROP INDEX \"\(index)\"")
        let broken = try FixtureScenario.schema.digest(of: store)
        #expect(broken.differences(from: expected) == ["index \(index) on \(table)(\(columns.joined(separator: ", "))) is missing"])
        #expect(broken != expected)
        #expect(broken.value == expected.value, "the data's digest leaves the shape out")
    }

    @Test("an index of the schema's name that is not the schema's is named with what is wrong")
    func reshapedIndexes() throws {
        let cases: [(sql: String, difference: String)] = [
            (
                "DROP INDEX author_handle_unique; CREATE INDEX author_handle_unique ON author(handle)",
                "index author_handle_unique on author(handle) is not unique"
            ),
            (
                "DROP INDEX author_handle_unique; CREATE UNIQUE INDEX author_handle_unique ON author(handle) WHERE karma > 0",
                "index author_handle_unique on author(handle) is partial: its WHERE clause leaves rows out"
            ),
            (
                "DROP INDEX author_handle_unique; CREATE UNIQUE INDEX author_handle_unique ON author(handle COLLATE NOCASE)",
                "index author_handle_unique on author(handle) is on author(handle COLLATE NOCASE) instead"
            ),
            (
                "DROP INDEX post_author_pk; CREATE INDEX post_author_pk ON post(title)",
                "index post_author_pk on post(author_pk) is on post(title) instead"
            ),
            (
                "DROP INDEX post_author_pk; CREATE INDEX post_author_pk ON comment(author_pk)",
                "index post_author_pk on post(author_pk) is on comment(author_pk) instead"
            ),
            (
                "DROP INDEX post_author_pk; CREATE UNIQUE INDEX post_author_pk ON post(author_pk, pk)",
                "index post_author_pk on post(author_pk) is on post(author_pk, pk) instead"
            ),
        ]
        for (sql, difference) in cases {
            let directory = try TemporaryDirectory()
            defer { withExtendedLifetime(directory) {} }
            let (store, expected) = try importedFixture(in: directory)
            // The names the cases spell are those of the schema: a change to the DDL's names shows here first.
            let names = try Self.texts(store, "SELECT name FROM sqlite_master WHERE type = 'index'")
            #expect(names.contains("author_handle_unique") && names.contains("post_author_pk"))
            try store.execute(sql)
            let digest = try FixtureScenario.schema.digest(of: store)
            #expect(digest.differences(from: expected).first == difference, "\(sql)")
            #expect(digest != expected, "\(sql)")
        }
    }

    @Test("a missing table or column is a difference, named before the data's, not a failure to digest")
    func missingTablesAndColumns() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let (store, expected) = try importedFixture(in: directory)
        try store.execute("ALTER TABLE comment DROP COLUMN body")
        let noColumn = try FixtureScenario.schema.digest(of: store)
        #expect(noColumn.differences(from: expected).first == "table comment has no column body")
        #expect(noColumn.differences(from: expected).contains("comment: missing"))

        try store.execute("DROP TABLE comment")
        let noTable = try FixtureScenario.schema.digest(of: store)
        let differences = noTable.differences(from: expected)
        // Its indexes went with it: the table's line says so once.
        #expect(differences.first == "table comment is missing")
        #expect(!differences.contains { $0.hasPrefix("index comment_") })
        #expect(noTable != expected)
    }

    @Test("the shape's differences come before the data's: they are what the user must fix")
    func shapeFirst() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let (store, expected) = try importedFixture(in: directory)
        try store.execute("DROP INDEX post_author_pk; DELETE FROM tag WHERE label = (SELECT max(label) FROM tag)")
        let differences = try FixtureScenario.schema.digest(of: store).differences(from: expected)
        #expect(differences.first == "index post_author_pk on post(author_pk) is missing")
        #expect(differences.count > 1)
        #expect(differences.dropFirst().allSatisfy { !$0.hasPrefix("index ") })
    }

    @Test("the expected shape is the DDL's, read back: every table and index it creates, the join tables' primary keys too")
    func expectedShapeFollowsTheDDL() throws {
        let schema = FixtureScenario.schema
        let shape = try schema.ddlShape()
        #expect(Set(shape.tables.map(\.name)) == Set(schema.tableNames))
        #expect(Set(schema.indexNames).isSubset(of: shape.indexes.map(\.name)))
        let primaryKeys = shape.indexes.filter { $0.origin == "pk" }
        #expect(primaryKeys.map(\.columns) == [["source_pk", "target_pk"]])
        #expect(shape.indexes.filter(\.unique).count == schema.entities.count + primaryKeys.count)
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let (store, expected) = try importedFixture(in: directory)
        #expect(expected.shape == shape)
        #expect(try schema.shape(of: store) == shape)
    }

    @Test("a digest crosses processes with its shape; one without a shape decodes, and differs from every store's")
    func codable() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let (store, expected) = try importedFixture(in: directory)
        let digest = try FixtureScenario.schema.digest(of: store)
        let data = try JSONEncoder().encode(digest)
        #expect(try JSONDecoder().decode(ContentDigest.self, from: data) == digest)
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["shape"] != nil)
        object["shape"] = nil
        let old = try JSONDecoder().decode(ContentDigest.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(old.shape == nil)
        #expect(old.value == digest.value)
        #expect(old != expected)
        #expect(old.differences(from: expected) == ["the store's tables and indexes were not read"])
    }
}
