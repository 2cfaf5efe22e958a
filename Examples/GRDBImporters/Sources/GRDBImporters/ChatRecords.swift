import GRDB
import ImportBench

// The chat scenario's tables as a chat app declares them (Scenarios/chat/README.md): one Codable
// record per table, snake_case columns, camelCase properties.

/// A chat record: columns in snake_case.
protocol ChatRecord: ImportedRecord {}

extension ChatRecord {
    static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { .convertFromSnakeCase }
    static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .convertToSnakeCase }
}

struct ChatUser: ChatRecord {
    static let databaseTableName = "user"
    static let keyColumn = "id"
    static let payloadColumns = ["name", "role", "image", "created_at", "updated_at", "online"]

    var naturalKey: String { id }

    var pk: Int64?
    var id: String
    var name: String?
    var role: String?
    var image: String?
    var createdAt: String?
    var updatedAt: String?
    var online: Bool?
    var importGeneration: Int64 = 0

    init(_ occurrence: BatchOccurrence, foreignKeys: [Int64?]) {
        let values = occurrence.attributes
        id = occurrence.key.string ?? ""
        name = values[0].string
        role = values[1].string
        image = values[2].string
        createdAt = values[3].string
        updatedAt = values[4].string
        online = values[5].bool
    }
}

struct ChatChannel: ChatRecord {
    static let databaseTableName = "channel"
    static let keyColumn = "cid"
    static let payloadColumns = ["id", "type", "name", "created_at", "updated_at", "watcher_count", "created_by_pk"]

    var naturalKey: String { cid }

    var pk: Int64?
    var cid: String
    var id: String?
    var type: String?
    var name: String?
    var createdAt: String?
    var updatedAt: String?
    var watcherCount: Int64?
    var createdByPk: Int64?
    var importGeneration: Int64 = 0
    var importListed: Int64?

    init(_ occurrence: BatchOccurrence, foreignKeys: [Int64?]) {
        let values = occurrence.attributes
        cid = occurrence.key.string ?? ""
        id = values[0].string
        type = values[1].string
        name = values[2].string
        createdAt = values[3].string
        updatedAt = values[4].string
        watcherCount = values[5].int64
        createdByPk = foreignKeys[0]
    }
}

struct ChatMessage: ChatRecord {
    static let databaseTableName = "message"
    static let keyColumn = "id"
    static let payloadColumns = ["text", "type", "created_at", "updated_at", "channel_pk", "user_pk", "quoted_message_pk"]

    var naturalKey: String { id }

    var pk: Int64?
    var id: String
    var text: String?
    var type: String?
    var createdAt: String?
    var updatedAt: String?
    var channelPk: Int64?
    var userPk: Int64?
    var quotedMessagePk: Int64?
    var importGeneration: Int64 = 0
    var importListed: Int64?

    init(_ occurrence: BatchOccurrence, foreignKeys: [Int64?]) {
        let values = occurrence.attributes
        id = occurrence.key.string ?? ""
        text = values[0].string
        type = values[1].string
        createdAt = values[2].string
        updatedAt = values[3].string
        channelPk = foreignKeys[0]
        userPk = foreignKeys[1]
        quotedMessagePk = foreignKeys[2]
    }
}

struct ChatReaction: ChatRecord {
    static let databaseTableName = "reaction"
    static let keyColumn = "key"
    static let payloadColumns = ["type", "score", "created_at", "message_pk", "user_pk"]

    var naturalKey: String { key }

    var pk: Int64?
    var key: String
    var type: String?
    var score: Int64?
    var createdAt: String?
    var messagePk: Int64?
    var userPk: Int64?
    var importGeneration: Int64 = 0

    init(_ occurrence: BatchOccurrence, foreignKeys: [Int64?]) {
        let values = occurrence.attributes
        key = occurrence.key.string ?? ""
        type = values[0].string
        score = values[1].int64
        createdAt = values[2].string
        messagePk = foreignKeys[0]
        userPk = foreignKeys[1]
    }
}

struct ChatAttachment: ChatRecord {
    static let databaseTableName = "attachment"
    static let keyColumn = "key"
    static let payloadColumns = ["type", "title", "asset_url", "image_url", "mime_type", "file_size", "message_pk"]

    var naturalKey: String { key }

    var pk: Int64?
    var key: String
    var type: String?
    var title: String?
    var assetUrl: String?
    var imageUrl: String?
    var mimeType: String?
    var fileSize: Int64?
    var messagePk: Int64?
    var importGeneration: Int64 = 0

    init(_ occurrence: BatchOccurrence, foreignKeys: [Int64?]) {
        let values = occurrence.attributes
        key = occurrence.key.string ?? ""
        type = values[0].string
        title = values[1].string
        assetUrl = values[2].string
        imageUrl = values[3].string
        mimeType = values[4].string
        fileSize = values[5].int64
        messagePk = foreignKeys[0]
    }
}

struct ChatMember: ChatRecord {
    static let databaseTableName = "member"
    static let keyColumn = "key"
    static let payloadColumns = ["role", "created_at", "channel_pk", "user_pk"]

    var naturalKey: String { key }

    var pk: Int64?
    var key: String
    var role: String?
    var createdAt: String?
    var channelPk: Int64?
    var userPk: Int64?
    var importGeneration: Int64 = 0

    init(_ occurrence: BatchOccurrence, foreignKeys: [Int64?]) {
        let values = occurrence.attributes
        key = occurrence.key.string ?? ""
        role = values[0].string
        createdAt = values[1].string
        channelPk = foreignKeys[0]
        userPk = foreignKeys[1]
    }
}

struct ChatRead: ChatRecord {
    static let databaseTableName = "read"
    static let keyColumn = "key"
    static let payloadColumns = ["last_read", "unread_messages", "channel_pk", "user_pk"]

    var naturalKey: String { key }

    var pk: Int64?
    var key: String
    var lastRead: String?
    var unreadMessages: Int64?
    var channelPk: Int64?
    var userPk: Int64?
    var importGeneration: Int64 = 0

    init(_ occurrence: BatchOccurrence, foreignKeys: [Int64?]) {
        let values = occurrence.attributes
        key = occurrence.key.string ?? ""
        lastRead = values[0].string
        unreadMessages = values[1].int64
        channelPk = foreignKeys[0]
        userPk = foreignKeys[1]
    }
}
