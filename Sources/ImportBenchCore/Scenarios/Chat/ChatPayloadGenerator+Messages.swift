import ImportBenchPayload

extension ChatPayloadGenerator {
    // MARK: Messages

    /// What a message is written from: its channel, its place in the channel's page, when it was
    /// sent and by whom.
    struct MessageDraft {
        let channel: ChannelDraft
        let index: Int
        let sentAt: Int64
        let author: Int

        var id: String { "msg-\(channel.index)-\(index)" }
    }

    /// A message as a later one quotes it.
    struct QuotableMessage {
        let id: String
        let text: String
        let createdAt: Int64
        let updatedAt: Int64
        let author: Int
        /// The id it quotes itself, if it does.
        let quoted: String?
    }

    /// The channel's page of messages: each sent a little after the one before, mostly by members,
    /// popular ones more often.
    func writeMessages(
        of channel: ChannelDraft, random: inout SeededRandom, dropped: inout SeededRandom, document: DocumentContext,
        to writer: JSONTextWriter
    ) {
        let memberPopularity = document.memberPopularity[channel.members.count]
        writer.key("messages")
        writer.beginArray()
        var sentAt = channel.createdAt
        var written: [QuotableMessage] = []
        written.reserveCapacity(messagesPerChannel)
        for index in 0..<messagesPerChannel {
            sentAt +=
                Int64(random.nextInt(in: 1...1_200)) * Self.secondMicroseconds
                + Int64(random.nextInt(below: 1_000_000))
            let author =
                random.chance(0.9)
                ? channel.members[memberPopularity.sample(using: &random)].user
                : document.userPopularity.sample(using: &random)
            writeMessage(
                MessageDraft(channel: channel, index: index, sentAt: sentAt, author: author), written: &written, random: &random,
                dropped: &dropped, document: document, to: writer)
        }
        writer.endArray()
    }

    /// In a revised channel, most messages also carry a reaction, a mention and sometimes an
    /// attachment that the unrevised message has dropped, all drawn from `dropped`.
    private func writeMessage(
        _ message: MessageDraft, written: inout [QuotableMessage], random: inout SeededRandom, dropped: inout SeededRandom,
        document: DocumentContext, to writer: JSONTextWriter
    ) {
        let revision = message.channel.revision
        let dropsChildren = revision > 0 && dropped.chance(Self.droppedChildrenShare)
        writer.beginObject()
        writer.field("id", message.id)
        let text = Self.messageText(random: &random) + (revision > 0 ? " (edited \(revision))" : "")
        writer.field("text", text)
        writer.field("type", "regular")
        writer.field("created_at", Self.timestamp(message.sentAt))
        let edited = random.chance(0.1)
        let updatedAt = edited ? message.sentAt + Int64(random.nextInt(in: 1...3_600)) * Self.secondMicroseconds : message.sentAt
        writer.field("updated_at", Self.timestamp(updatedAt))
        writer.key("user")
        writeUser(message.author, random: &random, document: document, to: writer)
        let quoted = writeQuote(by: message, written: written, random: &random, document: document, to: writer)
        written.append(
            QuotableMessage(
                id: message.id, text: text, createdAt: message.sentAt, updatedAt: updatedAt, author: message.author, quoted: quoted))
        writeAttachments(messageID: message.id, dropsChildren: dropsChildren, random: &random, dropped: &dropped, to: writer)
        writeReactions(sentAt: message.sentAt, dropsChildren: dropsChildren, random: &random, dropped: &dropped, document: document, to: writer)
        writeMentions(
            among: message.channel.members, dropsChildren: dropsChildren, random: &random, dropped: &dropped, document: document, to: writer)
        writer.endObject()
    }

    /// As Stream sends a quote: the id, and the quoted message embedded whole. Half the quotes are
    /// of an earlier message of this page (the copy as the page has it), half of one older than
    /// the page, which only the embedded copy brings. Returns the quoted id; nil for no quote.
    private func writeQuote(
        by message: MessageDraft, written: [QuotableMessage], random: inout SeededRandom, document: DocumentContext,
        to writer: JSONTextWriter
    ) -> String? {
        guard random.chance(0.05) else { return nil }
        let channel = message.channel
        let copy =
            message.index > 0 && random.chance(0.5)
            ? written[random.nextInt(below: message.index)]
            : Self.olderMessage(
                channel: channel.index, index: random.nextInt(below: 1_000), createdBefore: channel.createdAt, members: channel.members,
                seed: seed)
        writer.field("quoted_message_id", copy.id)
        writer.key("quoted_message")
        writer.beginObject()
        writer.field("id", copy.id)
        writer.field("text", copy.text)
        writer.field("type", "regular")
        writer.field("created_at", Self.timestamp(copy.createdAt))
        writer.field("updated_at", Self.timestamp(copy.updatedAt))
        writer.key("user")
        writeUser(copy.author, random: &random, document: document, to: writer)
        if let inner = copy.quoted { writer.field("quoted_message_id", inner) }
        writer.endObject()
        return copy.id
    }

    /// Some messages carry one or two attachments; a message that drops children carries one more,
    /// and sometimes one where the message has none.
    private func writeAttachments(
        messageID: String, dropsChildren: Bool, random: inout SeededRandom, dropped: inout SeededRandom, to writer: JSONTextWriter
    ) {
        writer.key("attachments")
        writer.beginArray()
        let attachmentCount = random.chance(0.15) ? random.nextInt(in: 1...2) : 0
        for index in 0..<attachmentCount {
            writeAttachment(messageID: messageID, index: index, random: &random, to: writer)
        }
        if dropsChildren && (attachmentCount > 0 || dropped.chance(Self.droppedAttachmentShare)) {
            writeAttachment(messageID: messageID, index: attachmentCount, random: &dropped, to: writer)
        }
        writer.endArray()
    }

    /// The latest reactions, and a message that drops children one more, then their counts per type.
    private func writeReactions(
        sentAt: Int64, dropsChildren: Bool, random: inout SeededRandom, dropped: inout SeededRandom, document: DocumentContext,
        to writer: JSONTextWriter
    ) {
        let reactions = drawReactions(random: &random, document: document)
        let droppedReaction = dropsChildren ? reaction(outside: reactions, random: &dropped, document: document) : nil
        writer.key("latest_reactions")
        writer.beginArray()
        for reaction in reactions {
            writeReaction(reaction, sentAt: sentAt, random: &random, document: document, to: writer)
        }
        if let droppedReaction {
            writeReaction(droppedReaction, sentAt: sentAt, random: &dropped, document: document, to: writer)
        }
        writer.endArray()
        writer.key("reaction_counts")
        writer.beginObject()
        let allReactions = reactions + (droppedReaction.map { [$0] } ?? [])
        for (type, name) in Self.reactionTypes.enumerated() {
            let count = allReactions.reduce(0) { $0 + ($1.type == type ? 1 : 0) }
            if count > 0 { writer.field(name, count) }
        }
        writer.endObject()
    }

    /// Up to three distinct (user, type) pairs, popular users and types more likely; bounded
    /// attempts, as a user reacts once per type.
    private func drawReactions(random: inout SeededRandom, document: DocumentContext) -> [(user: Int, type: Int)] {
        var reactions: [(user: Int, type: Int)] = []
        let wantedReactions = random.nextInt(in: 0...3)
        var attempts = 0
        while reactions.count < wantedReactions && attempts < 20 {
            attempts += 1
            let reaction = (
                user: document.userPopularity.sample(using: &random),
                type: document.reactionTypePopularity.sample(using: &random)
            )
            if !reactions.contains(where: { $0.user == reaction.user && $0.type == reaction.type }) {
                reactions.append(reaction)
            }
        }
        return reactions
    }

    /// The mentioned members, and in a message that drops children one member more it no longer mentions.
    private func writeMentions(
        among members: [Member], dropsChildren: Bool, random: inout SeededRandom, dropped: inout SeededRandom,
        document: DocumentContext, to writer: JSONTextWriter
    ) {
        let mentioned = drawMentions(among: members, random: &random)
        writer.key("mentioned_users")
        writer.beginArray()
        for user in mentioned {
            writeUser(user, random: &random, document: document, to: writer)
        }
        if dropsChildren {
            let unmentioned = members.map(\.user).filter { !mentioned.contains($0) }
            if !unmentioned.isEmpty {
                writeUser(dropped.pick(unmentioned), random: &dropped, document: document, to: writer)
            }
        }
        writer.endArray()
    }

    /// One message in ten mentions one or two distinct members.
    private func drawMentions(among members: [Member], random: inout SeededRandom) -> [Int] {
        var mentioned: [Int] = []
        guard random.chance(0.1) else { return mentioned }
        let wanted = min(random.nextInt(in: 1...2), members.count)
        var attempts = 0
        while mentioned.count < wanted && attempts < 20 {
            attempts += 1
            let user = random.pick(members).user
            if !mentioned.contains(user) { mentioned.append(user) }
        }
        return mentioned
    }

    private func writeReaction(
        _ reaction: (user: Int, type: Int), sentAt: Int64, random: inout SeededRandom, document: DocumentContext,
        to writer: JSONTextWriter
    ) {
        writer.beginObject()
        writer.field("type", Self.reactionTypes[reaction.type])
        writer.field("score", random.chance(0.1) ? random.nextInt(in: 2...5) : 1)
        writer.key("user")
        writeUser(reaction.user, random: &random, document: document, to: writer)
        let reactedAt = sentAt + Int64(random.nextInt(in: 1...86_400)) * Self.secondMicroseconds
        writer.field("created_at", Self.timestamp(reactedAt))
        writer.endObject()
    }

    /// A (user, type) pair not among `existing`: the type is drawn by popularity, and the next types
    /// are tried in turn if every user already reacted with it.
    private func reaction(
        outside existing: [(user: Int, type: Int)], random: inout SeededRandom, document: DocumentContext
    ) -> (user: Int, type: Int)? {
        let first = document.reactionTypePopularity.sample(using: &random)
        for offset in 0..<Self.reactionTypes.count {
            let type = (first + offset) % Self.reactionTypes.count
            let reacted = Set(existing.lazy.filter { $0.type == type }.map(\.user))
            if let user = user(outside: reacted, random: &random, document: document) { return (user, type) }
        }
        return nil
    }

    private func writeAttachment(messageID: String, index: Int, random: inout SeededRandom, to writer: JSONTextWriter) {
        let assetURL = "https://cdn.example.com/attachments/\(messageID)/\(index)"
        writer.beginObject()
        switch random.nextInt(below: 3) {
        case 0:
            writer.field("type", "image")
            writer.field("title", "IMG_\(random.nextInt(in: 1_000...9_999)).jpg")
            writer.field("asset_url", "\(assetURL).jpg")
            writer.field("image_url", "\(assetURL).jpg")
            writer.field("mime_type", "image/jpeg")
        case 1:
            // Files have no preview: image_url is absent, as in real payloads.
            writer.field("type", "file")
            writer.field("title", "\(random.pick(Self.topics)) notes \(random.nextInt(in: 1...99)).pdf")
            writer.field("asset_url", "\(assetURL).pdf")
            writer.field("mime_type", "application/pdf")
        default:
            writer.field("type", "video")
            writer.field("title", "clip-\(random.nextInt(in: 1...999)).mp4")
            writer.field("asset_url", "\(assetURL).mp4")
            writer.field("image_url", "\(assetURL)-thumbnail.jpg")
            writer.field("mime_type", "video/mp4")
        }
        writer.field("file_size", random.nextInt(in: 10_000...5_000_000))
        writer.endObject()
    }

    /// A message from before the page: the same every time it is quoted, in any revision of the channel.
    private static func olderMessage(
        channel: Int, index: Int, createdBefore channelCreatedAt: Int64, members: [Member], seed: UInt64
    ) -> QuotableMessage {
        var random = SeededRandom(seed: SeededRandom.subSeed(seed, stream: 6, index: UInt64(channel) << 20 | UInt64(index)))
        let createdAt = channelCreatedAt - Int64(1_000 - index) * 600 * secondMicroseconds
        return QuotableMessage(
            id: "msg-\(channel)-old-\(index)", text: messageText(random: &random), createdAt: createdAt, updatedAt: createdAt,
            author: members[random.nextInt(below: members.count)].user, quoted: nil)
    }

    /// Mostly plain words; some texts carry quotes, backslashes, newlines, tabs and non-ASCII, so
    /// writers and readers are exercised on escapes.
    static func messageText(random: inout SeededRandom) -> String {
        var text = ""
        let wordCount = random.nextInt(in: 3...24)
        for index in 0..<wordCount {
            if index > 0 { text += " " }
            text += random.pick(words)
        }
        switch random.nextInt(below: 40) {
        case 0: text += " \"\(random.pick(words))\""
        case 1: text += "\n\(random.pick(words))"
        case 2: text += " 🎉"
        case 3: text += " C:\\temp\\\(random.pick(words)).txt"
        case 4: text += "\t— café ✓"
        default: break
        }
        return text
    }
}
