import ImportBenchStore

/// Turns a chat payload into record units, one per channel, streaming: the splitter hands over one
/// channel's bytes at a time and a `JSONTape` parses only those.
///
/// Occurrences are emitted dependencies first (each embedded user before the object that refers to
/// it, the channel before its messages, a message before its reactions and attachments), and every
/// embedded reference carries the index of its target's occurrence within the unit.
///
/// Keys that build a natural key are required (channel `cid`, message `id`, user `id`, reaction
/// `type` and `user`, member and read `user`); everything else may be absent or null and becomes NULL.
/// Unknown keys are ignored. A missing required value, a value of the wrong type or a key repeated
/// with another value is a `PayloadError`; with `onError: .skip` the channel holding it is left out
/// and counted as a "malformed channel" instead.
public final class ChatPayloadReader: RecordReader {
    public let path: String
    private var records: JSONRecordStream
    private let entities: EntityIndexes
    /// Reactions of the message being read: their users come before the message, their own
    /// occurrences after it. Kept across messages to reuse its storage.
    private var pendingReactions: [PendingReaction] = []

    private struct PendingReaction {
        let type: String
        let score: DatabaseValue
        let createdAt: DatabaseValue
        let userID: String
        let user: Reference
    }

    public init(path: String, schema: Schema, onError: PayloadErrorPolicy = .fail, chunkSize: Int = 1 << 20) throws {
        self.path = path
        entities = try EntityIndexes(schema: schema, file: path)
        let elements = try JSONArrayElementReader(path: path, arrayPath: ["channels"], chunkSize: chunkSize)
        records = JSONRecordStream(elements: elements, recordName: "channel", onError: onError)
    }

    public func nextUnit() throws -> RecordUnit? {
        try records.nextUnit { tape in
            RecordUnit(
                occurrences: try occurrences(of: tape.root.object()), path: tape.recordPath, byteOffset: tape.baseOffset)
        }
    }

    public var skippedRecords: [String: Int] { records.errors.skippedRecords }
    public var skippedErrors: [PayloadError] { records.errors.skippedErrors }

    // MARK: Occurrences

    private func occurrences(of element: JSONObject) throws -> [RecordOccurrence] {
        let channel = try element.required("channel").object()
        let messages = try element.optional("messages")?.array()
        let members = try element.optional("members")?.array()
        let reads = try element.optional("read")?.array()
        var occurrences: [RecordOccurrence] = []
        occurrences.reserveCapacity(
            2 + (messages?.count ?? 0) * 6 + (members?.count ?? 0) * 2 + (reads?.count ?? 0) * 2)

        let cid = try channel.required("cid").string()
        let attributes = [
            try text(channel, "id"), try text(channel, "type"), try text(channel, "name"),
            try text(channel, "created_at"), try text(channel, "updated_at"), try integer(element, "watcher_count"),
        ]
        var creator: Reference?
        if let createdBy = try channel.optional("created_by") {
            creator = try appendUser(createdBy.object(), to: &occurrences).reference
        }
        occurrences.append(
            RecordOccurrence(entity: entities.channel, key: .text(cid), attributes: attributes, toOne: [creator]))
        let channelReference = Reference.embedded(.text(cid), at: occurrences.count - 1)

        if let messages {
            for message in messages {
                try appendMessage(message.object(), channel: channelReference, to: &occurrences)
            }
        }
        if let members {
            for member in members {
                let member = try member.object()
                let user = try appendUser(member.required("user").object(), to: &occurrences)
                occurrences.append(
                    RecordOccurrence(
                        entity: entities.member, key: .text("\(cid)/\(user.id)"),
                        attributes: [try text(member, "role"), try text(member, "created_at")],
                        toOne: [channelReference, user.reference]))
            }
        }
        if let reads {
            for read in reads {
                let read = try read.object()
                let user = try appendUser(read.required("user").object(), to: &occurrences)
                occurrences.append(
                    RecordOccurrence(
                        entity: entities.read, key: .text("\(cid)/\(user.id)"),
                        attributes: [try text(read, "last_read"), try integer(read, "unread_messages")],
                        toOne: [channelReference, user.reference]))
            }
        }
        return occurrences
    }

    private func appendMessage(
        _ message: JSONObject, channel: Reference, to occurrences: inout [RecordOccurrence]
    ) throws {
        let id = try message.required("id").string()
        let attributes = [
            try text(message, "text"), try text(message, "type"), try text(message, "created_at"),
            try text(message, "updated_at"),
        ]
        let user = try message.optional("user")
        let quoted = try message.string("quoted_message_id").map { Reference.keyOnly(.text($0)) }
        let attachments = try message.optional("attachments")?.array()
        let reactions = try message.optional("latest_reactions")?.array()
        let mentionedUsers = try message.optional("mentioned_users")?.array()

        var author: Reference?
        if let user {
            author = try appendUser(user.object(), to: &occurrences).reference
        }
        pendingReactions.removeAll(keepingCapacity: true)
        if let reactions {
            for reaction in reactions {
                let reaction = try reaction.object()
                let type = try reaction.required("type").string()
                let score = try integer(reaction, "score")
                let user = try appendUser(reaction.required("user").object(), to: &occurrences)
                pendingReactions.append(
                    PendingReaction(
                        type: type, score: score, createdAt: try text(reaction, "created_at"), userID: user.id,
                        user: user.reference))
            }
        }
        var mentioned: [Reference] = []
        if let mentionedUsers {
            mentioned.reserveCapacity(mentionedUsers.count)
            for user in mentionedUsers {
                mentioned.append(try appendUser(user.object(), to: &occurrences).reference)
            }
        }
        occurrences.append(
            RecordOccurrence(
                entity: entities.message, key: .text(id), attributes: attributes, toOne: [channel, author, quoted],
                manyToMany: [mentioned]))
        let messageReference = Reference.embedded(.text(id), at: occurrences.count - 1)

        for reaction in pendingReactions {
            occurrences.append(
                RecordOccurrence(
                    entity: entities.reaction, key: .text("\(id)/\(reaction.userID)/\(reaction.type)"),
                    attributes: [.text(reaction.type), reaction.score, reaction.createdAt],
                    toOne: [messageReference, reaction.user]))
        }
        if let attachments {
            for (index, attachment) in attachments.enumerated() {
                let attachment = try attachment.object()
                occurrences.append(
                    RecordOccurrence(
                        entity: entities.attachment, key: .text("\(id)/\(index)"),
                        attributes: [
                            try text(attachment, "type"), try text(attachment, "title"),
                            try text(attachment, "asset_url"), try text(attachment, "image_url"),
                            try text(attachment, "mime_type"), try integer(attachment, "file_size"),
                        ],
                        toOne: [messageReference]))
            }
        }
    }

    /// Appends the user's occurrence and returns its key and the reference to it.
    private func appendUser(
        _ user: JSONObject, to occurrences: inout [RecordOccurrence]
    ) throws -> (id: String, reference: Reference) {
        let id = try user.required("id").string()
        let attributes = [
            try text(user, "name"), try text(user, "role"), try text(user, "image"), try text(user, "created_at"),
            try text(user, "updated_at"), try boolean(user, "online"),
        ]
        occurrences.append(RecordOccurrence(entity: entities.user, key: .text(id), attributes: attributes))
        return (id, .embedded(.text(id), at: occurrences.count - 1))
    }

    /// The member as text; NULL when absent or null.
    @inline(__always)
    private func text(_ object: JSONObject, _ key: String) throws -> DatabaseValue {
        try object.string(key).map(DatabaseValue.text) ?? .null
    }

    /// The member as 1 or 0; NULL when absent or null.
    @inline(__always)
    private func boolean(_ object: JSONObject, _ key: String) throws -> DatabaseValue {
        try object.bool(key).map { .integer($0 ? 1 : 0) } ?? .null
    }

    /// The member as an integer; NULL when absent or null.
    @inline(__always)
    private func integer(_ object: JSONObject, _ key: String) throws -> DatabaseValue {
        try object.int64(key).map(DatabaseValue.integer) ?? .null
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
