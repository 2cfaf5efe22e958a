import Foundation
import ImportBenchCore
import ImportBenchPayload
import ImportBenchSchema
import ImportBenchStore

/// A reader over units held in memory: exact, hand-checked payloads for strategy tests.
final class ArrayRecordReader: RecordReader {
    private var remaining: ArraySlice<RecordUnit>
    init(_ units: [RecordUnit]) { remaining = units[...] }
    func nextUnit() throws -> RecordUnit? { remaining.popFirst() }
}

/// A small forum: integer and text keys, a self-reference by key only, an owned child, a many-to-many
/// set, and objects repeated with changing attributes so "last occurrence wins" is observable.
struct FixtureScenario: Scenario {
    let name = "fixture"
    let summary = "hand-written forum payload for tests"
    let schema: Schema
    let screenQuery = FixtureScenario.newestPostsQuery
    let units: [RecordUnit]

    /// The 20 newest posts with their authors.
    static let newestPostsQuery =
        #"SELECT p."title", a."name" FROM "post" p LEFT JOIN "author" a ON a."pk" = p."author_pk" ORDER BY p."pk" DESC LIMIT 20"#

    static let schema: Schema = {
        do {
            return try Schema(
                name: "fixture",
                entities: [
                    Entity("author", key: Attribute("handle", .text), attributes: [Attribute("name", .text), Attribute("karma", .integer)]),
                    Entity("tag", key: Attribute("label", .text), attributes: []),
                    Entity(
                        "post", key: Attribute("id", .integer), attributes: [Attribute("title", .text), Attribute("score", .real)],
                        toOne: [ToOneRelationship("author", to: "author"), ToOneRelationship("reply_to", to: "post")],
                        manyToMany: [ManyToManyRelationship("tags", to: "tag")]),
                    Entity(
                        "comment", key: Attribute("key", .text), attributes: [Attribute("body", .text)],
                        toOne: [ToOneRelationship("post", to: "post", owner: true), ToOneRelationship("author", to: "author")]),
                ])
        } catch {
            fatalError("fixture schema: \(error)")
        }
    }()

    init(units: [RecordUnit] = FixtureScenario.forumUnits) {
        schema = Self.schema
        self.units = units
    }

    func generate(scale: Double, seed: UInt64, to path: String) throws {
        try Data("fixture".utf8).write(to: URL(fileURLWithPath: path))
    }

    func openReader(path: String, reading: PayloadReading) throws -> any RecordReader { ArrayRecordReader(units) }

    // Entity indexes.
    static let author = 0, tag = 1, post = 2, comment = 3

    static func author(_ handle: String, karma: Int64) -> RecordOccurrence {
        RecordOccurrence(entity: author, key: .text(handle), attributes: [.text(handle.capitalized), .integer(karma)])
    }

    static func tag(_ label: String) -> RecordOccurrence {
        RecordOccurrence(entity: tag, key: .text(label), attributes: [])
    }

    static func post(_ id: Int64, _ title: String, author: Reference?, replyTo: Reference? = nil, tags: [Reference]) -> RecordOccurrence {
        RecordOccurrence(
            entity: post, key: .integer(id), attributes: [.text(title), .real(Double(id) * 1.5)],
            toOne: [author, replyTo], manyToMany: [tags])
    }

    static func comment(_ key: String, post: Reference, author: Reference) -> RecordOccurrence {
        RecordOccurrence(entity: comment, key: .text(key), attributes: [.text("on \(key)")], toOne: [post, author])
    }

    /// The forum, then a reply to post 99, which no unit holds: the last occurrence dangles.
    static let forumUnitsWithOrphan: [RecordUnit] =
        forumUnits + [
            RecordUnit(
                occurrences: [post(7, "orphan reply", author: .keyOnly("bob"), replyTo: .keyOnly(99), tags: [])], path: "posts[3]",
                byteOffset: 300)
        ]

    /// A quakes payload of scale 0.03 cut after `fraction` of its bytes, at `cut.json` in `directory`:
    /// its path and the length it was cut to.
    static func cutQuakes(at fraction: Double, in directory: TemporaryDirectory) throws -> (path: String, length: Int) {
        let full = directory.path("full.json")
        try QuakesScenario().generate(scale: 0.03, seed: 4, to: full)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: full))
        let path = directory.path("cut.json")
        let length = Int(Double(bytes.count) * fraction)
        try bytes.prefix(length).write(to: URL(fileURLWithPath: path))
        return (path, length)
    }

    /// 14 occurrences of 9 objects, 3 references by key only.
    static let forumUnits: [RecordUnit] = [
        RecordUnit(
            occurrences: [
                author("alice", karma: 1),
                tag("swift"),
                post(1, "first", author: .embedded("alice", at: 0), tags: [.embedded("swift", at: 1)]),
                author("bob", karma: 5),
                comment("1/0", post: .embedded(1, at: 2), author: .embedded("bob", at: 3)),
                author("alice", karma: 2),
                comment("1/1", post: .embedded(1, at: 2), author: .embedded("alice", at: 5)),
            ], path: "posts[0]", byteOffset: 0),
        RecordUnit(
            occurrences: [
                author("bob", karma: 6),
                tag("swift"),
                tag("sql"),
                post(2, "second", author: .embedded("bob", at: 0), replyTo: .keyOnly(1), tags: [.embedded("swift", at: 1), .embedded("sql", at: 2)]),
                author("alice", karma: 3),
                comment("2/0", post: .embedded(2, at: 3), author: .embedded("alice", at: 4)),
            ], path: "posts[1]", byteOffset: 100),
        RecordUnit(
            occurrences: [
                post(1, "first, edited", author: .keyOnly("bob"), tags: [.keyOnly("sql")])
            ], path: "posts[2]", byteOffset: 200),
    ]
}
