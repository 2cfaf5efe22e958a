/// The parts of a Stream Chat channel-list element the chat schema stores. Unknown keys are ignored;
/// optionals are fields that real payloads omit or send as null. Non-optional fields are the ones a
/// natural key is built from, so their absence is a payload error.
struct ChatChannelElement: Decodable {
    let channel: ChatChannelPayload
    let messages: [ChatMessagePayload]?
    let members: [ChatMemberPayload]?
    let read: [ChatReadPayload]?
    let watcherCount: Int64?

    enum CodingKeys: String, CodingKey {
        case channel, messages, members, read
        case watcherCount = "watcher_count"
    }
}

struct ChatUserPayload: Decodable {
    let id: String
    let name: String?
    let role: String?
    let image: String?
    let createdAt: String?
    let updatedAt: String?
    let online: Bool?

    enum CodingKeys: String, CodingKey {
        case id, name, role, image, online
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }
}

struct ChatChannelPayload: Decodable {
    let cid: String
    let id: String?
    let type: String?
    let name: String?
    let createdAt: String?
    let updatedAt: String?
    let createdBy: ChatUserPayload?

    enum CodingKeys: String, CodingKey {
        case cid, id, type, name
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case createdBy = "created_by"
    }
}

struct ChatMessagePayload: Decodable {
    let id: String
    let text: String?
    let type: String?
    let createdAt: String?
    let updatedAt: String?
    let user: ChatUserPayload?
    let quotedMessageID: String?
    let attachments: [ChatAttachmentPayload]?
    let latestReactions: [ChatReactionPayload]?
    let mentionedUsers: [ChatUserPayload]?

    enum CodingKeys: String, CodingKey {
        case id, text, type, user, attachments
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case quotedMessageID = "quoted_message_id"
        case latestReactions = "latest_reactions"
        case mentionedUsers = "mentioned_users"
    }
}

struct ChatAttachmentPayload: Decodable {
    let type: String?
    let title: String?
    let assetURL: String?
    let imageURL: String?
    let mimeType: String?
    let fileSize: Int64?

    enum CodingKeys: String, CodingKey {
        case type, title
        case assetURL = "asset_url"
        case imageURL = "image_url"
        case mimeType = "mime_type"
        case fileSize = "file_size"
    }
}

/// `type` and `user` are required: with the message id they form the reaction's key.
struct ChatReactionPayload: Decodable {
    let type: String
    let score: Int64?
    let user: ChatUserPayload
    let createdAt: String?

    enum CodingKeys: String, CodingKey {
        case type, score, user
        case createdAt = "created_at"
    }
}

struct ChatMemberPayload: Decodable {
    let user: ChatUserPayload
    let role: String?
    let createdAt: String?

    enum CodingKeys: String, CodingKey {
        case user, role
        case createdAt = "created_at"
    }
}

struct ChatReadPayload: Decodable {
    let user: ChatUserPayload
    let lastRead: String?
    let unreadMessages: Int64?

    enum CodingKeys: String, CodingKey {
        case user
        case lastRead = "last_read"
        case unreadMessages = "unread_messages"
    }
}
