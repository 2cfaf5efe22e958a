import ImportBenchSchema
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
package final class ChatPayloadReader: RecordReader, JSONElementDecoder {
    /// The member names leading to the array of elements (the generator writes them there, or one
    /// per line for JSON Lines).
    package static let elements: [String] = ["channels"]

    package let path: String
    private let schema: Schema
    /// Read and advanced once per unit, by this reader's own methods one at a time: unchecked, as the
    /// runtime exclusivity check of a class's stored `var` cost a check per element.
    @exclusivity(unchecked) private var records: JSONRecordStream
    private let entities: EntityIndexes
    /// Per message, reused across messages: the handles of its reactions' users (their occurrences
    /// come before the message, the reactions' own after it) and of its mentioned users.
    private var reactionUsers: [OccurrenceHandle] = []
    private var mentioned: [OccurrenceHandle] = []
    /// Where a user's members are, reused from user to user.
    private let userSlots = JSONMemberSlots(for: ChatPayloadReader.userMembers)
    /// Where a message's members are, reused from message to message (its users use `userSlots`).
    private let messageSlots = JSONMemberSlots(for: ChatPayloadReader.messageMembers)
    /// Where an embedded quoted message's members are, while its quoting message's stay in `messageSlots`.
    private let quotedSlots = JSONMemberSlots(for: ChatPayloadReader.messageMembers)

    package init(path: String, schema: Schema, reading: PayloadReading = PayloadReading(), chunkSize: Int = 1 << 20) throws {
        self.path = path
        self.schema = schema
        entities = try EntityIndexes(schema: schema, file: path)
        let elements = try JSONElements.open(
            path: path, arrayPath: Self.elements, chunkSize: chunkSize, limits: reading.limits, hasher: reading.hasher)
        records = JSONRecordStream(elements: elements, recordName: "channel", onError: reading.onError)
    }

    package func readUnit(into builder: RecordBuilder) throws -> Bool {
        try records.readUnit(into: builder, by: self)
    }

    func decodeElement(_ tape: JSONTape, into builder: RecordBuilder) throws {
        try write(channel: tape.object(at: 0), in: tape, to: builder)
    }

    /// The same unit as owned occurrences (ordinals and key IDs unset, embedded references by
    /// index within the unit), for callers that want values rather than a batch.
    package func nextUnit() throws -> RecordUnit? {
        try records.ownedUnit(schema: schema, by: self)
    }

    package var skippedRecords: [String: Int] { records.errors.skippedRecords }
    package var skippedErrors: [PayloadError] { records.errors.skippedErrors }

    // MARK: Occurrences
    // The walk passes token indexes and the tape (`JSONTape+Indexes`): a `JSONObject` or `JSONValue`
    // per object would retain and release the tape each time.

    private func write(channel element: Int, in tape: JSONTape, to builder: RecordBuilder) throws {
        let channel = try tape.object(at: tape.requiredMember("channel", inObject: element))
        let cid = try tape.requiredMember("cid", inObject: channel)
        let messages = try Self.elements(tape.optionalMember("messages", inObject: element), in: tape)
        let members = try Self.elements(tape.optionalMember("members", inObject: element), in: tape)
        let reads = try Self.elements(tape.optionalMember("read", inObject: element), in: tape)

        // Members are looked up in the order payloads write them, which is what lookups are fastest in.
        let id = try tape.member("id", inObject: channel)
        let kind = try tape.member("type", inObject: channel)
        let name = try tape.member("name", inObject: channel)
        let createdAt = try tape.member("created_at", inObject: channel)
        let updatedAt = try tape.member("updated_at", inObject: channel)
        let createdBy = try tape.member("created_by", inObject: channel)
        var creator: OccurrenceHandle?
        if let createdBy, !tape.isNull(at: createdBy) { creator = try appendUser(tape.object(at: createdBy), in: tape, to: builder) }
        builder.begin(entity: entities.channel)
        try tape.withStringBytes(at: cid) { builder.key(text: $0) }
        for attribute in [id, kind, name, createdAt, updatedAt] { try text(tape, attribute ?? -1, builder) }
        try integer(tape, element, "watcher_count", builder)
        reference(to: creator, absent: createdBy == nil, builder)
        // A channel without its members or reads lists neither, as the mapping reads it: a refresh keeps them.
        if members == nil || reads == nil { builder.listsNoChildren() }
        let channelHandle = builder.finish()

        if let messages {
            for message in messages {
                try appendMessage(tape.object(at: message), in: tape, channel: channelHandle, to: builder)
            }
        }
        try appendListed(members, in: tape, entity: entities.member, channel: channelHandle, to: builder) { member in
            try text(tape, member, "role", builder)
            try text(tape, member, "created_at", builder)
        }
        try appendListed(reads, in: tape, entity: entities.read, channel: channelHandle, to: builder) { read in
            try text(tape, read, "last_read", builder)
            try integer(tape, read, "unread_messages", builder)
        }
    }

    /// The elements of the array at `index`, if there is one: `JSONValue.array()` on an optional value.
    @inline(__always)
    private static func elements(_ index: Int?, in tape: JSONTape) throws(PayloadError) -> JSONElementIndexes? {
        guard let index else { return nil }
        return try tape.elements(ofArray: index)
    }

    /// A channel's members or reads: each item's user, then the item keyed `cid/user`, with the
    /// attributes `values` writes, referring to the channel and the user.
    private func appendListed(
        _ list: JSONElementIndexes?, in tape: JSONTape, entity: Int, channel: OccurrenceHandle, to builder: RecordBuilder,
        values: (Int) throws -> Void
    ) throws {
        guard let list else { return }
        for item in list {
            let item = try tape.object(at: item)
            let user = try appendUser(tape.object(at: tape.requiredMember("user", inObject: item)), in: tape, to: builder)
            builder.begin(entity: entity)
            composeKey(builder, channel, user)
            try values(item)
            builder.reference(to: channel)
            builder.reference(to: user)
            builder.finish()
        }
    }

    /// A message, dependencies first (its author, the quoted copy, its reactions' and mentions'
    /// users), then its reactions and attachments. A quoted copy (Stream embeds the quoted message
    /// whole beside `quoted_message_id`) is read the same way, into slots of its own while its
    /// quoting message's stay found, in the quoting message's channel; its own quote is read by key
    /// only. Returns the message's handle.
    @discardableResult
    private func appendMessage(
        _ message: Int, in tape: JSONTape, channel: OccurrenceHandle, isQuotedCopy: Bool = false, to builder: RecordBuilder
    ) throws -> OccurrenceHandle {
        let slots = isQuotedCopy ? quotedSlots : messageSlots
        try tape.find(Self.messageMembers.table, inObject: message, into: slots.values)
        let found = slots.values
        func present(_ position: Int) -> Int? { Self.present(tape, found, position) }
        let user = present(5)
        let attachments = try Self.elements(present(7), in: tape)
        let reactions = try Self.elements(present(8), in: tape)
        let mentionedUsers = try Self.elements(present(9), in: tape)

        let author = try user.map { try appendUser(tape.object(at: $0), in: tape, to: builder) }
        let quotedCopy =
            isQuotedCopy
            ? nil
            : try present(10).map { try appendMessage(tape.object(at: $0), in: tape, channel: channel, isQuotedCopy: true, to: builder) }
        reactionUsers.removeAll(keepingCapacity: true)
        if let reactions {
            for reaction in reactions {
                let reaction = try tape.object(at: reaction)
                _ = try tape.withStringBytes(at: tape.requiredMember("type", inObject: reaction)) { _ in }
                reactionUsers.append(try appendUser(tape.object(at: tape.requiredMember("user", inObject: reaction)), in: tape, to: builder))
            }
        }
        mentioned.removeAll(keepingCapacity: true)
        if let mentionedUsers {
            for user in mentionedUsers {
                mentioned.append(try appendUser(tape.object(at: user), in: tape, to: builder))
            }
        }
        try beginMessage(message, found, in: tape, channel: channel, author: author, quotedCopy: quotedCopy, to: builder)
        // Without its attachments or mentions (as a quoted copy often comes) it lists neither, as the
        // mapping reads it: a refresh keeps the stored ones.
        if attachments == nil || mentionedUsers == nil { builder.listsNoChildren() }
        for user in mentioned { builder.reference(to: user) }
        let messageHandle = builder.finish()

        if let reactions {
            for (reaction, user) in zip(reactions, reactionUsers) {
                let reaction = try tape.object(at: reaction)
                builder.begin(entity: entities.reaction)
                let type = try tape.withStringBytes(at: tape.requiredMember("type", inObject: reaction)) { builder.text($0) }
                try integer(tape, reaction, "score", builder)
                try text(tape, reaction, "created_at", builder)
                composeKey(builder, messageHandle, user, type)
                builder.reference(to: messageHandle)
                builder.reference(to: user)
                builder.finish()
            }
        }
        if let attachments {
            for (index, attachment) in attachments.enumerated() {
                let attachment = try tape.object(at: attachment)
                builder.begin(entity: entities.attachment)
                try text(tape, attachment, "type", builder)
                try text(tape, attachment, "title", builder)
                try text(tape, attachment, "asset_url", builder)
                try text(tape, attachment, "image_url", builder)
                try text(tape, attachment, "mime_type", builder)
                try integer(tape, attachment, "file_size", builder)
                builder.beginKeyText()
                if let message = builder.keyText(of: messageHandle) { builder.appendKeyText(message) }
                builder.appendKeyText(byte: UInt8(ascii: "/"))
                builder.appendKeyText(decimal: index)
                builder.endKeyText()
                builder.reference(to: messageHandle)
                builder.finish()
            }
        }
        return messageHandle
    }

    /// Writes a message occurrence up to its mentions, which the caller adds: key, attributes,
    /// channel, author, and its quote (the embedded copy's occurrence, else the quoted id).
    private func beginMessage(
        _ message: Int, _ found: UnsafeMutableBufferPointer<Int>, in tape: JSONTape, channel: OccurrenceHandle, author: OccurrenceHandle?,
        quotedCopy: OccurrenceHandle?, to builder: RecordBuilder
    ) throws {
        // `requiredMember` finds nothing the one pass missed: it is there for its error (absent or null).
        let id = found[0] >= 0 && !tape.isNull(at: found[0]) ? found[0] : try tape.requiredMember("id", inObject: message)
        builder.begin(entity: entities.message)
        try tape.withStringBytes(at: id) { builder.key(text: $0) }
        for position in 1...4 { try text(tape, found[position], builder) }
        builder.reference(to: channel)
        reference(to: author, absent: found[5] < 0, builder)
        if let quotedCopy {
            builder.reference(to: quotedCopy)
        } else if let quoted = Self.present(tape, found, 6) {
            try tape.withStringBytes(at: quoted) { builder.reference(keyText: $0) }
        } else if found[6] < 0 {
            builder.absentReference()
        } else {
            builder.noReference()
        }
        builder.beginSet()
    }

    /// The value index found at `position` of a member set's slots, unless it is absent or null.
    @inline(__always)
    private static func present(_ tape: JSONTape, _ found: UnsafeMutableBufferPointer<Int>, _ position: Int) -> Int? {
        let index = found[position]
        return index >= 0 && !tape.isNull(at: index) ? index : nil
    }

    /// Appends the user's occurrence and returns its handle.
    private func appendUser(_ user: Int, in tape: JSONTape, to builder: RecordBuilder) throws -> OccurrenceHandle {
        try tape.find(Self.userMembers.table, inObject: user, into: userSlots.values)
        let found = userSlots.values
        // `requiredMember` finds nothing the one pass missed: it is there for its error (absent or null).
        let id = found[0] >= 0 && !tape.isNull(at: found[0]) ? found[0] : try tape.requiredMember("id", inObject: user)
        builder.begin(entity: entities.user)
        try tape.withStringBytes(at: id) { builder.key(text: $0) }
        for position in 1...5 { try text(tape, found[position], builder) }
        if found[6] < 0 {
            builder.absent()
        } else if !tape.isNull(at: found[6]) {
            builder.integer(try tape.bool(at: found[6]) ? 1 : 0)
        } else {
            builder.null()
        }
        return builder.finish()
    }

    private static let userMembers = JSONMemberSet(["id", "name", "role", "image", "created_at", "updated_at", "online"])
    private static let messageMembers = JSONMemberSet([
        "id", "text", "type", "created_at", "updated_at", "user", "quoted_message_id", "attachments", "latest_reactions",
        "mentioned_users", "quoted_message",
    ])

    /// The value at a token index as text; absent when the member is (-1), NULL when null.
    @inline(__always)
    private func text(_ tape: JSONTape, _ index: Int, _ builder: RecordBuilder) throws {
        if index < 0 {
            builder.absent()
        } else if tape.tokens[index].kind == .null {
            builder.null()
        } else {
            try tape.writeText(at: index, to: builder)
        }
    }

    /// The key `owner/user` (a member, a read) or `owner/user/type` (a reaction), from the keys
    /// already written.
    private func composeKey(
        _ builder: RecordBuilder, _ owner: OccurrenceHandle, _ user: OccurrenceHandle, _ type: TextSpan? = nil
    ) {
        builder.beginKeyText()
        if let owner = builder.keyText(of: owner) { builder.appendKeyText(owner) }
        builder.appendKeyText(byte: UInt8(ascii: "/"))
        if let user = builder.keyText(of: user) { builder.appendKeyText(user) }
        if let type {
            builder.appendKeyText(byte: UInt8(ascii: "/"))
            builder.appendKeyText(type)
        }
        builder.endKeyText()
    }

    /// A reference to the handle's occurrence; without one, left out when the member was absent, else NULL.
    @inline(__always)
    private func reference(to handle: OccurrenceHandle?, absent: Bool = false, _ builder: RecordBuilder) {
        if let handle {
            builder.reference(to: handle)
        } else if absent {
            builder.absentReference()
        } else {
            builder.noReference()
        }
    }

    /// The member of the object at `object` as text; absent when the member is, NULL when null.
    @inline(__always)
    private func text(_ tape: JSONTape, _ object: Int, _ key: String, _ builder: RecordBuilder) throws {
        try text(tape, tape.member(key, inObject: object) ?? -1, builder)
    }

    /// The member of the object at `object` as an integer; absent when the member is, NULL when null.
    @inline(__always)
    private func integer(_ tape: JSONTape, _ object: Int, _ key: String, _ builder: RecordBuilder) throws {
        guard let member = try tape.member(key, inObject: object) else { return builder.absent() }
        if tape.isNull(at: member) { builder.null() } else { builder.integer(try tape.int64(at: member)) }
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
                    file: file, byteOffset: nil, path: nil, expected: .schemaEntity(name),
                    found: "schema '\(schema.name)' without it")
            }
            let entity = schema.entities[index]
            let shape = (entity.attributes.map(\.name), entity.toOne.map(\.name), entity.manyToMany.map(\.name))
            guard shape == (attributes, toOne, manyToMany) else {
                throw PayloadError(
                    file: file, byteOffset: nil, path: nil,
                    expected: .entityShape(name, attributes: attributes, toOne: toOne, manyToMany: manyToMany),
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
