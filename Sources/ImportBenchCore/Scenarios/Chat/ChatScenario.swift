import ImportBenchPayload
import ImportBenchSchema

/// A Stream Chat channel list: users embedded again and again in messages, reactions, mentions,
/// members and reads. The case every find-or-insert importer meets first.
package struct ChatScenario: Scenario {
    package let name = "chat"
    package let summary = "Stream Chat channel list: channels, messages, reactions, members; users embedded thousands of times"
    package let schema: Schema
    /// The latest 50 messages of the first channel, with their authors.
    package let screenQuery = """
        SELECT m."id", m."text", m."created_at", u."name", u."image" FROM "message" m LEFT JOIN "user" u ON u."pk" = m."user_pk" \
        WHERE m."channel_pk" = (SELECT "pk" FROM "channel" ORDER BY "pk" LIMIT 1) ORDER BY m."created_at" DESC LIMIT 50
        """

    /// The base size that scale 1 stands for.
    package struct BaseSize: Sendable {
        package var channels = 50
        package var users = 500
        package var messagesPerChannel = 200
        package var membersPerChannel = 10...80
    }

    package static let baseSize = BaseSize()

    package init() {
        // The declaration is fixed and validated by the schema tests; a failure here is a programming error.
        do {
            schema = try Schema(name: "chat", entities: Self.entities)
        } catch {
            fatalError("chat schema is invalid: \(error)")
        }
    }

    static let entities: [Entity] = [
        Entity(
            "user", key: Attribute("id", .text),
            attributes: [
                Attribute("name", .text), Attribute("role", .text), Attribute("image", .text),
                Attribute("created_at", .text), Attribute("updated_at", .text), Attribute("online", .boolean),
            ]),
        Entity(
            "channel", key: Attribute("cid", .text),
            attributes: [
                Attribute("id", .text), Attribute("type", .text), Attribute("name", .text),
                Attribute("created_at", .text), Attribute("updated_at", .text), Attribute("watcher_count", .integer),
            ],
            toOne: [ToOneRelationship("created_by", to: "user")]),
        Entity(
            "message", key: Attribute("id", .text),
            attributes: [
                Attribute("text", .text), Attribute("type", .text),
                Attribute("created_at", .text), Attribute("updated_at", .text),
            ],
            toOne: [
                // A channel list carries the latest page of messages; older ones stay stored.
                ToOneRelationship("channel", to: "channel", owner: true, listing: .partial),
                ToOneRelationship("user", to: "user"),
                ToOneRelationship("quoted_message", to: "message"),
            ],
            manyToMany: [ManyToManyRelationship("mentioned_users", to: "user")]),
        // Reactions, attachments, members and reads carry no id in the payload; their natural key is
        // composed from their owner's key and what makes them unique within it.
        Entity(
            "reaction", key: Attribute("key", .text),
            attributes: [Attribute("type", .text), Attribute("score", .integer), Attribute("created_at", .text)],
            // `latest_reactions` is the newest few, not all of them: older reactions stay stored.
            toOne: [
                ToOneRelationship("message", to: "message", owner: true, listing: .partial),
                ToOneRelationship("user", to: "user"),
            ]),
        Entity(
            "attachment", key: Attribute("key", .text),
            attributes: [
                Attribute("type", .text), Attribute("title", .text), Attribute("asset_url", .text),
                Attribute("image_url", .text), Attribute("mime_type", .text), Attribute("file_size", .integer),
            ],
            toOne: [ToOneRelationship("message", to: "message", owner: true)]),
        Entity(
            "member", key: Attribute("key", .text),
            attributes: [Attribute("role", .text), Attribute("created_at", .text)],
            toOne: [ToOneRelationship("channel", to: "channel", owner: true), ToOneRelationship("user", to: "user")]),
        Entity(
            "read", key: Attribute("key", .text),
            attributes: [Attribute("last_read", .text), Attribute("unread_messages", .integer)],
            toOne: [ToOneRelationship("channel", to: "channel", owner: true), ToOneRelationship("user", to: "user")]),
    ]

    package func generate(scale: Double, seed: UInt64, to path: String) throws {
        try ChatPayloadGenerator(scale: scale, seed: seed, base: Self.baseSize).write(to: path)
    }

    package func generatePreload(scale: Double, seed: UInt64, overlap: Double, changed: Double, to path: String) throws {
        try ChatPayloadGenerator(scale: scale, seed: seed, base: Self.baseSize)
            .preload(overlap: overlap, changed: changed, base: Self.baseSize).write(to: path)
    }

    package func openReader(path: String, reading: PayloadReading) throws -> any RecordReader {
        try ChatPayloadReader(path: path, schema: schema, reading: reading)
    }
}
