import Foundation
import ImportBenchCore
import ImportBenchPayload
import ImportBenchSchema
import ImportBenchStore
import Testing

/// The chat reader as it was before `JSONTape`: `JSONDecoder` into Decodable structs, then the same
/// occurrences. Kept only as the reference the tape-based reader must match exactly.
final class JSONDecoderChatReader: RecordReader {
    private let elements: JSONArrayElementReader
    private let decoder = JSONDecoder()
    private let entities: Entities

    private struct Entities {
        let user: Int, channel: Int, message: Int, reaction: Int, attachment: Int, member: Int, read: Int
    }

    init(path: String, schema: Schema) throws {
        func index(_ name: String) throws -> Int {
            try #require(schema.index(of: name))
        }
        entities = Entities(
            user: try index("user"), channel: try index("channel"), message: try index("message"),
            reaction: try index("reaction"), attachment: try index("attachment"), member: try index("member"),
            read: try index("read"))
        elements = try JSONArrayElementReader(path: path, arrayPath: ["channels"])
    }

    func nextUnit() throws -> RecordUnit? {
        guard let element = try elements.next() else { return nil }
        let decoded = try decoder.decode(ChatChannelElement.self, from: Data(element.text.utf8))
        return RecordUnit(
            occurrences: occurrences(of: decoded), path: "channels[\(element.index)]", byteOffset: element.byteOffset)
    }

    // MARK: Occurrences

    private func occurrences(of element: ChatChannelElement) -> [RecordOccurrence] {
        let messages = element.messages ?? []
        let members = element.members ?? []
        let reads = element.read ?? []
        var occurrences: [RecordOccurrence] = []
        occurrences.reserveCapacity(2 + messages.count * 6 + members.count * 2 + reads.count * 2)

        let channel = element.channel
        let creator = channel.createdBy.map { appendUser($0, to: &occurrences) }
        occurrences.append(
            RecordOccurrence(
                entity: entities.channel, key: .text(channel.cid),
                attributes: [
                    text(channel.id), text(channel.type), text(channel.name), text(channel.createdAt),
                    text(channel.updatedAt), integer(element.watcherCount),
                ],
                toOne: [creator]))
        let channelReference = Reference.embedded(.text(channel.cid), at: occurrences.count - 1)

        for message in messages {
            appendMessage(message, channel: channelReference, to: &occurrences)
        }
        for member in members {
            let user = appendUser(member.user, to: &occurrences)
            occurrences.append(
                RecordOccurrence(
                    entity: entities.member, key: .text("\(channel.cid)/\(member.user.id)"),
                    attributes: [text(member.role), text(member.createdAt)],
                    toOne: [channelReference, user]))
        }
        for read in reads {
            let user = appendUser(read.user, to: &occurrences)
            occurrences.append(
                RecordOccurrence(
                    entity: entities.read, key: .text("\(channel.cid)/\(read.user.id)"),
                    attributes: [text(read.lastRead), integer(read.unreadMessages)],
                    toOne: [channelReference, user]))
        }
        return occurrences
    }

    private func appendMessage(
        _ message: ChatMessagePayload, channel: Reference, to occurrences: inout [RecordOccurrence]
    ) {
        let author = message.user.map { appendUser($0, to: &occurrences) }
        let quoted = message.quotedMessage.map { quoted -> Reference in
            let quotedAuthor = quoted.user.map { appendUser($0, to: &occurrences) }
            occurrences.append(
                RecordOccurrence(
                    entity: entities.message, key: .text(quoted.id),
                    attributes: [text(quoted.text), text(quoted.type), text(quoted.createdAt), text(quoted.updatedAt)],
                    toOne: [channel, quotedAuthor, quoted.quotedMessageID.map { .keyOnly(.text($0)) }],
                    manyToMany: [[]]))
            return .embedded(.text(quoted.id), at: occurrences.count - 1)
        }
        let reactions = message.latestReactions ?? []
        let reactionUsers = reactions.map { appendUser($0.user, to: &occurrences) }
        let mentioned = (message.mentionedUsers ?? []).map { appendUser($0, to: &occurrences) }
        occurrences.append(
            RecordOccurrence(
                entity: entities.message, key: .text(message.id),
                attributes: [text(message.text), text(message.type), text(message.createdAt), text(message.updatedAt)],
                toOne: [channel, author, quoted ?? message.quotedMessageID.map { .keyOnly(.text($0)) }],
                manyToMany: [mentioned]))
        let messageReference = Reference.embedded(.text(message.id), at: occurrences.count - 1)

        for (reaction, user) in zip(reactions, reactionUsers) {
            occurrences.append(
                RecordOccurrence(
                    entity: entities.reaction, key: .text("\(message.id)/\(reaction.user.id)/\(reaction.type)"),
                    attributes: [.text(reaction.type), integer(reaction.score), text(reaction.createdAt)],
                    toOne: [messageReference, user]))
        }
        for (index, attachment) in (message.attachments ?? []).enumerated() {
            occurrences.append(
                RecordOccurrence(
                    entity: entities.attachment, key: .text("\(message.id)/\(index)"),
                    attributes: [
                        text(attachment.type), text(attachment.title), text(attachment.assetURL),
                        text(attachment.imageURL), text(attachment.mimeType), integer(attachment.fileSize),
                    ],
                    toOne: [messageReference]))
        }
    }

    /// Appends the user's occurrence and returns the reference to it.
    private func appendUser(_ user: ChatUserPayload, to occurrences: inout [RecordOccurrence]) -> Reference {
        occurrences.append(
            RecordOccurrence(
                entity: entities.user, key: .text(user.id),
                attributes: [
                    text(user.name), text(user.role), text(user.image), text(user.createdAt), text(user.updatedAt),
                    user.online.map { .integer($0 ? 1 : 0) } ?? .null,
                ]))
        return .embedded(.text(user.id), at: occurrences.count - 1)
    }

    @inline(__always)
    private func text(_ value: String?) -> StoreValue {
        value.map(StoreValue.text) ?? .null
    }

    @inline(__always)
    private func integer(_ value: Int64?) -> StoreValue {
        value.map(StoreValue.integer) ?? .null
    }

    // MARK: Decodable payload

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
        let quotedMessage: ChatQuotedMessagePayload?

        enum CodingKeys: String, CodingKey {
            case id, text, type, user, attachments
            case createdAt = "created_at"
            case updatedAt = "updated_at"
            case quotedMessageID = "quoted_message_id"
            case latestReactions = "latest_reactions"
            case mentionedUsers = "mentioned_users"
            case quotedMessage = "quoted_message"
        }
    }

    /// A quoted message embedded in the message that quotes it: no children, its own quote by id.
    struct ChatQuotedMessagePayload: Decodable {
        let id: String
        let text: String?
        let type: String?
        let createdAt: String?
        let updatedAt: String?
        let user: ChatUserPayload?
        let quotedMessageID: String?

        enum CodingKeys: String, CodingKey {
            case id, text, type, user
            case createdAt = "created_at"
            case updatedAt = "updated_at"
            case quotedMessageID = "quoted_message_id"
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
}
