import Foundation
import GRDB
import Testing

/// Absent is not null (JSON Merge Patch, RFC 7396): a member an occurrence leaves out keeps the
/// value an earlier occurrence gave it, and one present with null sets NULL. Each payload names an
/// object whole, then in part. Every GRDB strategy imports it through `grdb-bench` at batch size 1,
/// where the partial occurrence meets the stored row, and in one batch, where `BatchObjects` meets
/// both occurrences; bench's verifier must find each run valid, and the row each leaves in its
/// store must hold the merged values. Writing the whole record for the partial occurrence
/// (`update(db)`, `upsert(db)`) blanks the members it left out and fails both checks.
@Suite("GRDB strategies keep what a partial occurrence leaves out")
struct AbsentMemberTests {
    static let strategies = ["grdb-naive", "grdb-cache", "grdb-prewarm", "grdb-upsert", "grdb-idcache"]

    /// P-1 whole, another product, then P-1 with a new price, its description null, the rest left out.
    static let products = """
        [
          {"serialCode": "P-1", "name": "Desk lamp", "brand": "Acme", "category": "lighting", "price": 19.5, "currency": "EUR",
           "stock": 4, "active": true, "updatedAt": "2025-01-01T00:00:00Z", "description": "A lamp"},
          {"serialCode": "P-2", "name": "Shade", "brand": "Acme", "category": "lighting", "price": 5.25, "currency": "EUR",
           "stock": 10, "active": false, "updatedAt": "2025-01-01T00:00:00Z", "description": "A shade"},
          {"serialCode": "P-1", "price": 17.0, "description": null}
        ]
        """

    /// Channel one whole with its creator ada whole; channel one again with its name null and the
    /// rest, its creator (a to-one relationship) too, left out; channel two, whose creator is ada
    /// in part: a new name, the image null, the rest left out.
    static let chat = """
        {"channels": [
          {"channel": {"cid": "messaging:one", "id": "one", "type": "messaging", "name": "General",
             "created_at": "2025-01-01T00:00:00Z", "updated_at": "2025-01-02T00:00:00Z",
             "created_by": {"id": "ada", "name": "Ada", "role": "admin", "image": "ada.png",
                            "created_at": "2024-01-01T00:00:00Z", "updated_at": "2024-06-01T00:00:00Z", "online": true}},
           "watcher_count": 3, "messages": [], "members": [], "read": []},
          {"channel": {"cid": "messaging:one", "name": null}},
          {"channel": {"cid": "messaging:two", "id": "two", "type": "messaging", "name": "Random",
             "created_at": "2025-01-03T00:00:00Z", "updated_at": "2025-01-03T00:00:00Z",
             "created_by": {"id": "ada", "name": "Ada L.", "image": null}},
           "watcher_count": 1, "messages": [], "members": [], "read": []}
        ]}
        """

    @Test("products: a later partial product sets its price, nulls its description, keeps the rest", arguments: ["1", "all"])
    func products(batchSize: String) throws {
        try importEach(scenario: "products", payload: Self.products, batchSize: batchSize) { strategy, db in
            let row = try Row.fetchOne(
                db, sql: "SELECT name, brand, category, price, currency, stock, active, updatedAt, description FROM product WHERE serialCode = 'P-1'")
            let expected: Row = [
                "name": "Desk lamp", "brand": "Acme", "category": "lighting", "price": 17.0, "currency": "EUR", "stock": 4, "active": 1,
                "updatedAt": "2025-01-01T00:00:00Z", "description": nil,
            ]
            #expect(row == expected, "\(strategy), batch size \(batchSize)")
        }
    }

    @Test(
        "chat: a partial channel keeps its creator and attributes, nulls its name; a partial user keeps what it leaves out", arguments: ["1", "all"])
    func chat(batchSize: String) throws {
        try importEach(scenario: "chat", payload: Self.chat, batchSize: batchSize) { strategy, db in
            let channel = try Row.fetchOne(
                db,
                sql: """
                    SELECT channel.id, channel.type, channel.name, channel.created_at, channel.updated_at, channel.watcher_count, user.id AS creator
                    FROM channel LEFT JOIN user ON user.pk = channel.created_by_pk WHERE channel.cid = 'messaging:one'
                    """)
            let expectedChannel: Row = [
                "id": "one", "type": "messaging", "name": nil, "created_at": "2025-01-01T00:00:00Z", "updated_at": "2025-01-02T00:00:00Z",
                "watcher_count": 3, "creator": "ada",
            ]
            #expect(channel == expectedChannel, "\(strategy), batch size \(batchSize)")
            let user = try Row.fetchOne(db, sql: "SELECT name, role, image, created_at, updated_at, online FROM user WHERE id = 'ada'")
            let expectedUser: Row = [
                "name": "Ada L.", "role": "admin", "image": nil, "created_at": "2024-01-01T00:00:00Z", "updated_at": "2024-06-01T00:00:00Z",
                "online": 1,
            ]
            #expect(user == expectedUser, "\(strategy), batch size \(batchSize)")
        }
    }

    /// Runs every GRDB strategy on `payload` (a file of `scenario`'s shape) in one `grdb-bench run`,
    /// each into a store it keeps (`--db`); expects each run valid, all with one digest, then hands
    /// each strategy's store to `check`.
    private func importEach(
        scenario: String, payload: String, batchSize: String, check: (String, Database) throws -> Void
    ) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("grdb-absent-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let payloadFile = directory.appendingPathComponent("payload.json")
        try payload.write(to: payloadFile, atomically: true, encoding: .utf8)
        let csv = directory.appendingPathComponent("results.csv").path
        let (status, output) = try GRDBStrategyTests.launch(
            GRDBStrategyTests.binary,
            [
                "run", "--scenario", scenario, "--payload", payloadFile.path, "--batch-size", batchSize,
                "--strategy", Self.strategies.joined(separator: ","), "--db", directory.appendingPathComponent("store.sqlite").path,
                "--quiet", "--csv", csv,
            ])
        #expect(status == 0, "grdb-bench, \(scenario), batch size \(batchSize): \(output)")

        let lines = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\r\n").map(GRDBStrategyTests.fields)
        let header = try #require(lines.first)
        let rows = Dictionary(
            lines.dropFirst().map { fields in Dictionary(uniqueKeysWithValues: zip(header, fields)) }.map { ($0["strategy"] ?? "", $0) },
            uniquingKeysWith: { first, _ in first })
        for strategy in Self.strategies {
            #expect(rows[strategy]?["valid"] == "true", "\(strategy), batch size \(batchSize): bench's verifier found other data")
        }
        #expect(Set(rows.values.compactMap { $0["digest"] }).count == 1, "batch size \(batchSize): the strategies' stores differ")

        var configuration = Configuration()
        configuration.readonly = true
        for strategy in Self.strategies {
            let store = try DatabaseQueue(path: directory.appendingPathComponent("store-\(strategy).sqlite").path, configuration: configuration)
            try store.read { db in try check(strategy, db) }
        }
    }
}
