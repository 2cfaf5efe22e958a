import Foundation
import ImportBenchCore
import ImportBenchPayload
import ImportBenchSchema
import ImportBenchStore
import ImportBenchStrategies
import Testing

/// A member an object leaves out keeps what an earlier occurrence or the store gave it; a member
/// present with null sets NULL (RFC 7396). Payloads shaped as a Twitter search response: each status
/// embeds its author whole and names other users in part.
@Suite("Absent members keep stored values")
struct AbsentMembersTests {
    static let mapping = """
        name: statuses
        summary: statuses embedding their author whole and mentioning other users in part
        elements: statuses
        element: status
        entities:
          team:
            key: id
            attributes: {name: text}
          user:
            key: id_str
            attributes: {name: text, followers_count: integer, location: text}
            to_one:
              team: {entity: team, embedded: team}
          status:
            key: id_str
            attributes: {text: text}
            to_one:
              user: {entity: user, embedded: user}
            many_to_many:
              mentions: {entity: user, embedded: entities.user_mentions}
        """

    /// u2 is first mentioned (partial, new), then whole, then mentioned with explicit nulls; u1 is
    /// whole, then mentioned with another name; u3 has an explicit null and leaves its team out.
    static let payload = """
        {"statuses": [
          {"id_str": "s1", "text": "hello",
           "user": {"id_str": "u1", "name": "Ada", "followers_count": 10, "location": "London", "team": {"id": "t1", "name": "Core"}},
           "entities": {"user_mentions": [{"id_str": "u2", "name": "Bob"}]}},
          {"id_str": "s2", "text": "hi",
           "user": {"id_str": "u2", "name": "Bob", "followers_count": 5, "location": "Paris", "team": {"id": "t1", "name": "Core"}},
           "entities": {"user_mentions": [{"id_str": "u1", "name": "Ada L."}]}},
          {"id_str": "s3", "text": "bye",
           "user": {"id_str": "u3", "name": "Cy", "followers_count": 1, "location": null},
           "entities": {"user_mentions": [{"id_str": "u2", "name": "Bob", "location": null, "team": null}]}}
        ]}
        """

    /// (name, followers_count, location, team key) per user, as the rule leaves them.
    static let merged: [String: [StoreValue]] = [
        "u1": ["Ada L.", 10, "London", "t1"],
        "u2": ["Bob", 5, nil, nil],
        "u3": ["Cy", 1, nil, nil],
    ]

    /// As `absent: null` leaves them: every occurrence whole, a left-out member NULL.
    static let blanked: [String: [StoreValue]] = [
        "u1": ["Ada L.", nil, nil, nil],
        "u2": ["Bob", nil, nil, nil],
        "u3": ["Cy", 1, nil, nil],
    ]

    static let strategies = StrategyCatalog.builtIn.names
    static let batchSizes: [BatchSize] = [.occurrences(1), .occurrences(3), .all]

    struct Fixture {
        let directory: TemporaryDirectory
        let scenario: MappedScenario
        let payloadPath: String
        let expected: ExpectedContent

        init(absent: String? = nil) throws {
            directory = try TemporaryDirectory()
            let mappingText =
                absent.map {
                    AbsentMembersTests.mapping.replacingOccurrences(
                        of: "    key: id_str\n    attributes: {name", with: "    key: id_str\n    absent: \($0)\n    attributes: {name")
                }
                ?? AbsentMembersTests.mapping
            let mappingPath = directory.path("statuses.yml")
            try mappingText.write(toFile: mappingPath, atomically: true, encoding: .utf8)
            payloadPath = directory.path("statuses.json")
            try AbsentMembersTests.payload.write(toFile: payloadPath, atomically: true, encoding: .utf8)
            scenario = try MappedScenario.load(path: mappingPath)
            expected = try ExpectedContent.build(
                schema: scenario.schema, reader: scenario.openReader(path: payloadPath), scratchPath: directory.path("expected.sqlite"))
        }

        func run(_ method: ImportMethod, batchSize: BatchSize) throws -> (ImportMeasurement, String) {
            let store = directory.path("\(method.name)-\(batchSize).sqlite")
            let measurement = try ImportRun(
                scenario: scenario, payloadPath: payloadPath, method: method, databasePath: store,
                options: RunOptions(batchSize: batchSize)
            ).execute()
            return (measurement, store)
        }
    }

    /// Each user's (name, followers_count, location, team key) as stored.
    static func users(in store: String) throws -> [String: [StoreValue]] {
        let connection = try StoreConnection(path: store)
        let rows = try connection.prepare(
            #"SELECT u."id_str", u."name", u."followers_count", u."location", t."id" FROM "user" u LEFT JOIN "team" t ON t."pk" = u."team_pk""#)
        var users: [String: [StoreValue]] = [:]
        while try rows.step() {
            let row = rows.row()
            if case .text(let key) = row[0] { users[key] = Array(row.dropFirst()) }
        }
        rows.reset()
        return users
    }

    @Test(
        "every strategy merges partial objects, within a batch and across batches, and is valid",
        arguments: strategies, batchSizes)
    func merged(strategy: String, batchSize: BatchSize) throws {
        let fixture = try Fixture()
        let method = try #require(StrategyCatalog.builtIn.strategy(named: strategy))
        let (measurement, store) = try fixture.run(method, batchSize: batchSize)
        #expect(measurement.digest == fixture.expected.digest, "\(measurement.digest.differences(from: fixture.expected.digest))")
        #expect(try Self.users(in: store) == Self.merged)
    }

    @Test(
        "absent: null on an entity sets what an object leaves out to NULL, in the verifier and every strategy",
        arguments: ["naive", "prewarm", "upsert", "idcache", "ceiling"])
    func optOut(strategy: String) throws {
        let fixture = try Fixture(absent: "null")
        let method = try #require(StrategyCatalog.builtIn.strategy(named: strategy))
        let (measurement, store) = try fixture.run(method, batchSize: .occurrences(1))
        #expect(measurement.digest == fixture.expected.digest, "\(measurement.digest.differences(from: fixture.expected.digest))")
        #expect(try Self.users(in: store) == Self.blanked)
    }

    @Test("a strategy that overwrites every column with a partial object is invalid", arguments: batchSizes)
    func blankingIsInvalid(batchSize: BatchSize) throws {
        let fixture = try Fixture()
        let catalog = try StrategyCatalog.builtIn.adding([BlankingUpsert.self])
        let (measurement, store) = try fixture.run(try #require(catalog.strategy(named: BlankingUpsert.name)), batchSize: batchSize)
        #expect(measurement.digest != fixture.expected.digest)
        let users = try Self.users(in: store)
        #expect(users["u1"]?[2] == StoreValue.null, "the mention's missing location blanked Ada's")
    }

    @Test(
        "a built-in scenario's reader keeps what a later product leaves out, on the import's path and the verifier's alike",
        arguments: ["naive", "prewarm", "upsert", "idcache", "ceiling"], batchSizes)
    func products(strategy: String, batchSize: BatchSize) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let payload = directory.path("products.json")
        try """
        [{"serialCode": "p1", "name": "Lamp", "brand": "Acme", "price": 9.5, "stock": 3, "description": "Bright"},
         {"serialCode": "p2", "name": "Desk"},
         {"serialCode": "p1", "stock": 2, "brand": null}]
        """.write(toFile: payload, atomically: true, encoding: .utf8)
        let scenario = ProductsScenario()
        let expected = try ExpectedContent.build(
            schema: scenario.schema, reader: scenario.openReader(path: payload), scratchPath: directory.path("expected.sqlite"))
        let store = directory.path("store.sqlite")
        let measurement = try ImportRun(
            scenario: scenario, payloadPath: payload, method: try #require(StrategyCatalog.builtIn.strategy(named: strategy)),
            databasePath: store, options: RunOptions(batchSize: batchSize)
        ).execute()
        #expect(measurement.digest == expected.digest, "\(measurement.digest.differences(from: expected.digest))")
        let row = try StoreConnection(path: store).prepare(
            #"SELECT "name", "brand", "price", "stock", "description" FROM "product" WHERE "serialCode" = 'p1'"#)
        #expect(try row.step())
        #expect(row.row() == ["Lamp", nil, .real(9.5), 2, "Bright"])
        row.reset()
    }

    @Test("a column set holds positions past 64 and compares by its members alone")
    func columnSets() {
        var wide = ColumnSet([3, 64, 130])
        #expect(wide.contains(3) && wide.contains(64) && wide.contains(130))
        #expect(!wide.contains(4) && !wide.contains(65) && !wide.contains(500))
        #expect(!wide.isEmpty && ColumnSet().isEmpty)
        wide.insert(200)
        #expect(wide.contains(200))
        #expect(ColumnSet([1]) == ColumnSet([1]) && ColumnSet([1]).hashValue == ColumnSet([1]).hashValue)
        #expect(ColumnSet([1, 70]) != ColumnSet([1]))
    }

    @Test("an unknown absent rule is refused with its place and the two it takes")
    func badRule() throws {
        let text = Self.mapping.replacingOccurrences(of: "    key: id_str\n", with: "    key: id_str\n    absent: skip\n")
        let error = #expect(throws: MappingError.self) { _ = try PayloadMapping(yaml: text, file: "statuses.yml") }
        #expect(error?.file == "statuses.yml")
        #expect(error?.problem == .notAChoice("skip", of: .absent))
    }
}

/// The old rule, as a plug-in could still write it: every occurrence upserted with all its columns,
/// a left-out member bound as NULL. Only for the mapping above (statuses); nothing else calls it.
final class BlankingUpsert: ImportStrategy {
    static let name = "blanking-upsert"
    static let summary = "test: upserts every column of every occurrence, blanking what a partial object leaves out"

    private let team: StoreStatement
    private let user: StoreStatement
    private let status: StoreStatement
    private let mention: StoreStatement

    init(context: StrategyContext) throws {
        let generation = context.generation
        let column = Schema.generationColumn
        func upsert(_ table: String, _ columns: [String], values: [String]) -> String {
            let all = columns + [column]
            return
                "INSERT INTO \"\(table)\" (\(all.map { "\"\($0)\"" }.joined(separator: ", "))) VALUES (\(values.joined(separator: ", ")), \(generation)) "
                + "ON CONFLICT DO UPDATE SET " + all.dropFirst().map { "\"\($0)\" = excluded.\"\($0)\"" }.joined(separator: ", ")
        }
        team = try context.store.prepare(upsert("team", ["id", "name"], values: ["?", "?"]))
        user = try context.store.prepare(
            upsert(
                "user", ["id_str", "name", "followers_count", "location", "team_pk"],
                values: ["?", "?", "?", "?", #"(SELECT "pk" FROM "team" WHERE "id" = ?)"#]))
        status = try context.store.prepare(
            upsert(
                "status", ["id_str", "text", "user_pk"], values: ["?", "?", #"(SELECT "pk" FROM "user" WHERE "id_str" = ?)"#]))
        mention = try context.store.prepare(
            #"INSERT INTO "status_mentions" (source_pk, target_pk, "# + "\(column)) "
                + #"VALUES ((SELECT "pk" FROM "status" WHERE "id_str" = ?), (SELECT "pk" FROM "user" WHERE "id_str" = ?), "#
                + "\(generation)) ON CONFLICT DO UPDATE SET \(column) = excluded.\(column)")
    }

    func write(_ batch: RecordBatch, pass: Int) throws {
        for occurrence in batch.occurrences {
            let statement = [team, user, status][occurrence.entityIndex]
            statement.bind(occurrence.key, at: 1)
            var index: Int32 = 2
            for value in occurrence.attributes {
                statement.bind(value, at: index)
                index += 1
            }
            for reference in occurrence.toOne {
                statement.bind(reference?.key ?? .null, at: index)
                index += 1
            }
            try statement.execute()
            guard occurrence.entityIndex == 2 else { continue }
            for member in occurrence.manyToMany[0] {
                mention.bind(occurrence.key, at: 1)
                mention.bind(member.key, at: 2)
                try mention.execute()
            }
        }
    }
}
