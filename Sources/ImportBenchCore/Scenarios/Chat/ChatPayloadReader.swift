import Foundation
import ImportBenchStore

/// Turns a chat payload into record units, one per channel, streaming: the splitter hands over one
/// channel's bytes at a time and `JSONDecoder` decodes only those.
///
/// Occurrences are emitted dependencies first (each embedded user before the object that refers to
/// it, the channel before its messages, a message before its reactions and attachments), and every
/// embedded reference carries the index of its target's occurrence within the unit.
public final class ChatPayloadReader: RecordReader {
    public let path: String
    private let elements: JSONArrayElementReader
    private let decoder = JSONDecoder()
    private let entities: EntityIndexes

    public init(path: String, schema: Schema, chunkSize: Int = 1 << 20) throws {
        self.path = path
        entities = try EntityIndexes(schema: schema, file: path)
        elements = try JSONArrayElementReader(path: path, arrayPath: ["channels"], chunkSize: chunkSize)
    }

    public func nextUnit() throws -> RecordUnit? {
        guard let element = try elements.next() else { return nil }
        let unitPath = "channels[\(element.index)]"
        let decoded: ChatChannelElement
        do {
            decoded = try decoder.decode(ChatChannelElement.self, from: element.bytes)
        } catch let error as DecodingError {
            throw payloadError(error, unitPath: unitPath, byteOffset: element.byteOffset)
        }
        return RecordUnit(occurrences: occurrences(of: decoded), path: unitPath, byteOffset: element.byteOffset)
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
        let reactions = message.latestReactions ?? []
        let reactionUsers = reactions.map { appendUser($0.user, to: &occurrences) }
        let mentioned = (message.mentionedUsers ?? []).map { appendUser($0, to: &occurrences) }
        occurrences.append(
            RecordOccurrence(
                entity: entities.message, key: .text(message.id),
                attributes: [text(message.text), text(message.type), text(message.createdAt), text(message.updatedAt)],
                toOne: [channel, author, message.quotedMessageID.map { .keyOnly(.text($0)) }],
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
    private func text(_ value: String?) -> DatabaseValue {
        value.map(DatabaseValue.text) ?? .null
    }

    @inline(__always)
    private func integer(_ value: Int64?) -> DatabaseValue {
        value.map(DatabaseValue.integer) ?? .null
    }

    // MARK: Errors

    /// Names the field by its record path (`channels[3].messages[17].user.id`) rather than by
    /// Swift coding keys, so the message points into the payload.
    private func payloadError(_ error: DecodingError, unitPath: String, byteOffset: Int) -> PayloadError {
        func recordPath(_ codingPath: [any CodingKey]) -> String {
            codingPath.reduce(unitPath) { path, key in
                if let index = key.intValue { return "\(path)[\(index)]" }
                return "\(path).\(key.stringValue)"
            }
        }
        let path: String
        let expected: String
        let found: String
        switch error {
        case .keyNotFound(let key, let context):
            path = recordPath(context.codingPath + [key])
            expected = "key \"\(key.stringValue)\""
            found = "no such key"
        case .valueNotFound(let type, let context):
            path = recordPath(context.codingPath)
            expected = "a value of type \(type)"
            found = "null"
        case .typeMismatch(let type, let context):
            path = recordPath(context.codingPath)
            expected = "a value of type \(type)"
            found = context.debugDescription
        case .dataCorrupted(let context):
            path = recordPath(context.codingPath)
            expected = "valid JSON"
            found = [context.debugDescription, context.underlyingError.map { "\($0)" }]
                .compactMap { $0 }.joined(separator: ": ")
        @unknown default:
            path = unitPath
            expected = "a decodable channel"
            found = "\(error)"
        }
        return PayloadError(file: self.path, byteOffset: byteOffset, path: path, expected: expected, found: found)
    }
}

/// Entity positions resolved once, and checked against the attribute order the reader emits, so a
/// schema change cannot silently shift values into the wrong columns.
private struct EntityIndexes {
    let user: Int
    let channel: Int
    let message: Int
    let reaction: Int
    let attachment: Int
    let member: Int
    let read: Int

    init(schema: Schema, file: String) throws {
        func resolve(_ name: String, attributes: [String], toOne: [String], manyToMany: [String] = []) throws -> Int {
            guard let index = schema.index(of: name) else {
                throw PayloadError(
                    file: file, byteOffset: nil, path: nil, expected: "schema entity '\(name)'",
                    found: "schema '\(schema.name)' without it")
            }
            let entity = schema.entities[index]
            let shape = (entity.attributes.map(\.name), entity.toOne.map(\.name), entity.manyToMany.map(\.name))
            guard shape == (attributes, toOne, manyToMany) else {
                throw PayloadError(
                    file: file, byteOffset: nil, path: nil,
                    expected: "entity '\(name)' with attributes \(attributes), to-one \(toOne), to-many \(manyToMany)",
                    found: "attributes \(shape.0), to-one \(shape.1), to-many \(shape.2)")
            }
            return index
        }
        user = try resolve(
            "user", attributes: ["name", "role", "image", "created_at", "updated_at", "online"], toOne: [])
        channel = try resolve(
            "channel", attributes: ["id", "type", "name", "created_at", "updated_at", "watcher_count"],
            toOne: ["created_by"])
        message = try resolve(
            "message", attributes: ["text", "type", "created_at", "updated_at"],
            toOne: ["channel", "user", "quoted_message"], manyToMany: ["mentioned_users"])
        reaction = try resolve("reaction", attributes: ["type", "score", "created_at"], toOne: ["message", "user"])
        attachment = try resolve(
            "attachment", attributes: ["type", "title", "asset_url", "image_url", "mime_type", "file_size"],
            toOne: ["message"])
        member = try resolve("member", attributes: ["role", "created_at"], toOne: ["channel", "user"])
        read = try resolve("read", attributes: ["last_read", "unread_messages"], toOne: ["channel", "user"])
    }
}
