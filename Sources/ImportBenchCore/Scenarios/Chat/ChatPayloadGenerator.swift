import ImportBenchPayload

/// Writes a Stream Chat channel-list payload (`{"channels":[...]}`) whose bytes depend only on scale
/// and seed.
///
/// Each channel draws from its own random stream, derived from (seed, channel index), and is written
/// as soon as it is generated, so memory stays flat as scale grows; only per-user tables (profiles,
/// the popularity distribution) are O(users). Popularity is Zipf-like, so a few users appear in a
/// large share of messages, reactions and memberships, as in real chat traffic.
package struct ChatPayloadGenerator: Sendable {
    package let scale: Double
    package let seed: UInt64
    package let channelCount: Int
    package let userCount: Int
    package let messagesPerChannel: Int
    /// The base range clamped to the number of users, since members of a channel are distinct.
    package let membersPerChannel: ClosedRange<Int>
    /// Index of the first channel written; a refresh's earlier payload starts elsewhere to overlap partly.
    package let firstChannel: Int
    /// Bumped for another revision of the same channels: names and message texts change...
    package let revision: Int
    /// ...for this share of channels, chosen per channel independently of the revision.
    package let changedShare: Double

    /// In a revised channel, the share of messages that carry children the unrevised message lacks;
    /// the rest keep the same children, so a refresh meets both cases.
    static let droppedChildrenShare = 0.75
    /// Among those, messages without attachments that still had one.
    static let droppedAttachmentShare = 0.15

    /// Exponent of the popularity curve over user rank.
    static let popularityExponent = 1.1
    /// 2024-01-01T00:00:00Z; every timestamp is an offset from it.
    static let epochMicroseconds: Int64 = 1_704_067_200 * 1_000_000
    static let secondMicroseconds: Int64 = 1_000_000
    static let dayMicroseconds: Int64 = 86_400 * secondMicroseconds

    package init(
        scale: Double, seed: UInt64, base: ChatScenario.BaseSize = ChatScenario.baseSize,
        firstChannel: Int = 0, revision: Int = 0, changedShare: Double = 1
    ) {
        self.scale = scale
        self.seed = seed
        self.firstChannel = firstChannel
        self.revision = revision
        self.changedShare = changedShare
        channelCount = Self.scaled(base.channels, by: scale, minimum: 1)
        userCount = Self.scaled(base.users, by: scale, minimum: 2)
        messagesPerChannel = max(base.messagesPerChannel, 0)
        let upper = max(min(base.membersPerChannel.upperBound, userCount), 1)
        let lower = min(max(base.membersPerChannel.lowerBound, 1), upper)
        membersPerChannel = lower...upper
    }

    /// An earlier payload for a refresh: `overlap` of this payload's channels (with their messages,
    /// members and reads), `changed` of those renamed with every message edited. A changed channel
    /// also holds children this payload has dropped (see `droppedChildrenShare`), so a refresh that
    /// replaces owned sets has something to remove. Users are shared by all channels, so nearly all
    /// of them overlap whatever `overlap` is.
    package func preload(overlap: Double, changed: Double, base: ChatScenario.BaseSize = ChatScenario.baseSize) -> ChatPayloadGenerator {
        let shared = Int((Double(channelCount) * overlap).rounded())
        return ChatPayloadGenerator(
            scale: scale, seed: seed, base: base, firstChannel: firstChannel + channelCount - shared,
            revision: revision + 1, changedShare: changed)
    }

    /// Replaces the file at `path` with the payload.
    package func write(to path: String) throws {
        guard scale.isFinite, scale > 0 else {
            throw PayloadError(
                file: path, byteOffset: nil, path: nil, expected: .positiveScale,
                found: "\(scale)")
        }
        let writer = try JSONTextWriter(path: path, elements: ChatPayloadReader.elements)
        let document = DocumentContext(generator: self)
        writer.beginObject()
        writer.key("channels")
        writer.beginArray()
        for channel in firstChannel..<(firstChannel + channelCount) {
            try ImportInterruption.throwIfRequested()
            var random = SeededRandom(seed: SeededRandom.subSeed(seed, stream: 2, index: UInt64(channel)))
            var draw = SeededRandom(seed: SeededRandom.subSeed(seed, stream: 4, index: UInt64(channel)))
            let applied = revision > 0 && draw.chance(changedShare) ? revision : 0
            writeChannel(channel, revision: applied, random: &random, document: document, to: writer)
        }
        writer.endArray()
        // Real responses carry other top-level keys after the list; readers must skip them.
        var random = SeededRandom(seed: SeededRandom.subSeed(seed, stream: 3, index: 0))
        writer.field("duration", "\(random.nextInt(in: 10...999)).\(random.nextInt(in: 10...99))ms")
        writer.endObject()
        try writer.close()
    }

    static func scaled(_ base: Int, by scale: Double, minimum: Int) -> Int {
        let value = Double(base) * scale
        guard value.isFinite, value > 0 else { return minimum }
        return max(minimum, Int(min(value, 1e12).rounded()))
    }

    // MARK: Users

    /// What stays fixed for a user across all its occurrences.
    struct UserProfile {
        let id: String
        let name: String
        let role: String
        let image: String
        let createdAt: Int64
    }

    /// Tables shared by all channels: O(users), built once per document.
    struct DocumentContext {
        let users: [UserProfile]
        let userPopularity: ZipfSampler
        /// Popularity within a channel's member list, indexed by member count.
        let memberPopularity: [ZipfSampler]
        let reactionTypePopularity = ZipfSampler(count: ChatPayloadGenerator.reactionTypes.count, exponent: 1.1)

        init(generator: ChatPayloadGenerator) {
            users = (0..<generator.userCount).map { ChatPayloadGenerator.profile(user: $0, seed: generator.seed) }
            userPopularity = ZipfSampler(count: generator.userCount, exponent: ChatPayloadGenerator.popularityExponent)
            memberPopularity = (0...generator.membersPerChannel.upperBound).map {
                ZipfSampler(count: max($0, 1), exponent: ChatPayloadGenerator.popularityExponent)
            }
        }
    }

    static func profile(user: Int, seed: UInt64) -> UserProfile {
        var random = SeededRandom(seed: SeededRandom.subSeed(seed, stream: 1, index: UInt64(user)))
        let name = "\(random.pick(firstNames)) \(random.pick(lastNames))"
        let role = random.chance(0.03) ? "admin" : (random.chance(0.02) ? "guest" : "user")
        let createdAt =
            epochMicroseconds - Int64(random.nextInt(below: 365)) * dayMicroseconds
            - Int64(random.nextInt(below: 86_400_000_000))
        return UserProfile(
            id: "user-\(user)", name: name, role: role,
            image: "https://cdn.example.com/avatars/user-\(user).png", createdAt: createdAt)
    }

    /// `updated_at` and `online` vary between occurrences, so "last occurrence wins" is observable.
    func writeUser(
        _ user: Int, random: inout SeededRandom, document: DocumentContext, to writer: JSONTextWriter
    ) {
        let profile = document.users[user]
        let updatedAt =
            profile.createdAt + Int64(random.nextInt(below: 400)) * Self.dayMicroseconds
            + Int64(random.nextInt(below: 86_400)) * Self.secondMicroseconds
        writer.beginObject()
        writer.field("id", profile.id)
        writer.field("name", profile.name)
        writer.field("role", profile.role)
        writer.field("image", profile.image)
        writer.field("created_at", Self.timestamp(profile.createdAt))
        writer.field("updated_at", Self.timestamp(updatedAt))
        writer.field("online", random.chance(0.3))
        writer.endObject()
    }

    // MARK: Channels

    struct Member {
        let user: Int
        let role: String
        let joinedAt: Int64
    }

    struct Read {
        let user: Int
        let lastRead: Int64
        let unreadMessages: Int
    }

    /// What a channel's parts are written from: drawn before any of them is written, in the order
    /// the payload's bytes depend on.
    struct ChannelDraft {
        let index: Int
        let revision: Int
        let createdAt: Int64
        let members: [Member]
        /// A member who has left by the unrevised channel: listed only in a revised one.
        let formerMember: Int?
        let reads: [Read]

        var id: String { "channel-\(index)" }
    }

    /// A revised channel differs only in text appended after the random draws and in children the
    /// unrevised one has dropped; those come from a stream of their own, which an unrevised channel
    /// never draws from, so everything else stays byte-identical to the unrevised channel.
    private func writeChannel(
        _ channel: Int, revision: Int, random: inout SeededRandom, document: DocumentContext, to writer: JSONTextWriter
    ) {
        var dropped = SeededRandom(seed: SeededRandom.subSeed(seed, stream: 5, index: UInt64(channel)))
        let draft = draftChannel(channel, revision: revision, random: &random, dropped: &dropped, document: document)
        writer.beginObject()
        writeChannelFields(draft, random: &random, document: document, to: writer)
        writeMessages(of: draft, random: &random, dropped: &dropped, document: document, to: writer)
        writeMembers(of: draft, random: &random, dropped: &dropped, document: document, to: writer)
        writeReads(of: draft, random: &random, dropped: &dropped, document: document, to: writer)
        writer.field("watcher_count", random.nextInt(in: 0...draft.members.count))
        writer.endObject()
    }

    /// The channel's creation time, members, former member and reads, drawn before anything is written.
    private func draftChannel(
        _ channel: Int, revision: Int, random: inout SeededRandom, dropped: inout SeededRandom, document: DocumentContext
    ) -> ChannelDraft {
        let createdAt =
            Self.epochMicroseconds + Int64(channel) * 3_600 * Self.secondMicroseconds
            + Int64(random.nextInt(below: 3_600_000_000))
        let members = chooseMembers(random: &random, document: document, channelCreatedAt: createdAt)
        // A member who has left by the unrevised channel; members is all users only at tiny scales.
        let formerMember =
            revision > 0
            ? user(outside: Set(members.map(\.user)), random: &dropped, document: document)
            : nil
        let reads = members.compactMap { member -> Read? in
            guard random.chance(0.5) else { return nil }
            return Read(
                user: member.user,
                lastRead: createdAt + Int64(random.nextInt(below: 30)) * Self.dayMicroseconds,
                unreadMessages: random.nextInt(in: 0...min(messagesPerChannel, 50)))
        }
        return ChannelDraft(
            index: channel, revision: revision, createdAt: createdAt, members: members, formerMember: formerMember, reads: reads)
    }

    /// The `channel` object: its own fields and its creator, the first member.
    private func writeChannelFields(
        _ channel: ChannelDraft, random: inout SeededRandom, document: DocumentContext, to writer: JSONTextWriter
    ) {
        let revision = channel.revision
        writer.key("channel")
        writer.beginObject()
        writer.field("cid", "messaging:\(channel.id)")
        writer.field("id", channel.id)
        writer.field("type", "messaging")
        writer.field("name", "\(random.pick(Self.topics)) \(channel.index)" + (revision > 0 ? " (renamed \(revision))" : ""))
        writer.field("created_at", Self.timestamp(channel.createdAt))
        writer.field("updated_at", Self.timestamp(channel.createdAt + Int64(random.nextInt(below: 90)) * Self.dayMicroseconds))
        writer.key("created_by")
        writeUser(channel.members[0].user, random: &random, document: document, to: writer)
        writer.field("member_count", channel.members.count + (channel.formerMember == nil ? 0 : 1))
        writer.endObject()
    }

    /// The members, then the former member a revised channel still lists, drawn from `dropped`.
    private func writeMembers(
        of channel: ChannelDraft, random: inout SeededRandom, dropped: inout SeededRandom, document: DocumentContext,
        to writer: JSONTextWriter
    ) {
        writer.key("members")
        writer.beginArray()
        for member in channel.members {
            writer.beginObject()
            writer.key("user")
            writeUser(member.user, random: &random, document: document, to: writer)
            writer.field("user_id", document.users[member.user].id)
            writer.field("role", member.role)
            writer.field("created_at", Self.timestamp(member.joinedAt))
            writer.endObject()
        }
        if let formerMember = channel.formerMember {
            writer.beginObject()
            writer.key("user")
            writeUser(formerMember, random: &dropped, document: document, to: writer)
            writer.field("user_id", document.users[formerMember].id)
            writer.field("role", "member")
            let delay = Int64(dropped.nextInt(below: 7 * 86_400)) * Self.secondMicroseconds
            writer.field("created_at", Self.timestamp(channel.createdAt + delay))
            writer.endObject()
        }
        writer.endArray()
    }

    /// The members' reads, then the former member's a revised channel still lists, drawn from `dropped`.
    private func writeReads(
        of channel: ChannelDraft, random: inout SeededRandom, dropped: inout SeededRandom, document: DocumentContext,
        to writer: JSONTextWriter
    ) {
        writer.key("read")
        writer.beginArray()
        for read in channel.reads {
            writer.beginObject()
            writer.key("user")
            writeUser(read.user, random: &random, document: document, to: writer)
            writer.field("last_read", Self.timestamp(read.lastRead))
            writer.field("unread_messages", read.unreadMessages)
            writer.endObject()
        }
        if let formerMember = channel.formerMember {
            writer.beginObject()
            writer.key("user")
            writeUser(formerMember, random: &dropped, document: document, to: writer)
            writer.field("last_read", Self.timestamp(channel.createdAt + Int64(dropped.nextInt(below: 30)) * Self.dayMicroseconds))
            writer.field("unread_messages", dropped.nextInt(in: 0...min(messagesPerChannel, 50)))
            writer.endObject()
        }
        writer.endArray()
    }

    /// Distinct members, popular users more likely; the first is the channel's creator and owner.
    private func chooseMembers(
        random: inout SeededRandom, document: DocumentContext, channelCreatedAt: Int64
    ) -> [Member] {
        let wanted = random.nextInt(in: membersPerChannel)
        var chosen: [Int] = []
        chosen.reserveCapacity(wanted)
        var isChosen = Set<Int>(minimumCapacity: wanted)
        // Rejection sampling keeps the skew; the bounded number of attempts keeps small user sets
        // (where the tail is rarely drawn) from looping, and the remainder is filled in rank order.
        var attempts = 0
        while chosen.count < wanted && attempts < wanted * 20 {
            attempts += 1
            let user = document.userPopularity.sample(using: &random)
            if isChosen.insert(user).inserted { chosen.append(user) }
        }
        var next = random.nextInt(below: userCount)
        while chosen.count < wanted {
            if isChosen.insert(next).inserted { chosen.append(next) }
            next = (next + 1) % userCount
        }
        return chosen.enumerated().map { position, user in
            let role = position == 0 ? "owner" : (random.chance(0.1) ? "moderator" : "member")
            let delay = position == 0 ? 0 : Int64(random.nextInt(below: 7 * 86_400)) * Self.secondMicroseconds
            let joinedAt = channelCreatedAt + delay
            return Member(user: user, role: role, joinedAt: joinedAt)
        }
    }

    /// A user not in `excluded`, popular ones more likely, or nil when every user is excluded.
    func user(outside excluded: Set<Int>, random: inout SeededRandom, document: DocumentContext) -> Int? {
        guard excluded.count < userCount else { return nil }
        // Bounded rejection as in chooseMembers: popular users are often excluded already.
        for _ in 0..<20 {
            let user = document.userPopularity.sample(using: &random)
            if !excluded.contains(user) { return user }
        }
        var next = random.nextInt(below: userCount)
        while excluded.contains(next) { next = (next + 1) % userCount }
        return next
    }

    // MARK: Timestamps

    /// ISO-8601 with microseconds in UTC ("2024-03-05T14:07:09.123456Z"), formatted by hand so output
    /// does not depend on locale, time zone database or Foundation version.
    static func timestamp(_ microsecondsSinceEpoch: Int64) -> String {
        let microseconds = microsecondsSinceEpoch
        var days = microseconds / dayMicroseconds
        var remainder = microseconds % dayMicroseconds
        if remainder < 0 {
            days -= 1
            remainder += dayMicroseconds
        }
        // Howard Hinnant's civil-from-days.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)

        let second = remainder / secondMicroseconds
        let fraction = remainder % secondMicroseconds
        return String(unsafeUninitializedCapacity: 27) { buffer in
            func put(_ value: Int64, digits: Int, at offset: Int) {
                var value = value
                for position in stride(from: offset + digits - 1, through: offset, by: -1) {
                    buffer[position] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
            }
            put(min(max(year, 0), 9_999), digits: 4, at: 0)
            buffer[4] = UInt8(ascii: "-")
            put(month, digits: 2, at: 5)
            buffer[7] = UInt8(ascii: "-")
            put(day, digits: 2, at: 8)
            buffer[10] = UInt8(ascii: "T")
            put(second / 3_600, digits: 2, at: 11)
            buffer[13] = UInt8(ascii: ":")
            put(second / 60 % 60, digits: 2, at: 14)
            buffer[16] = UInt8(ascii: ":")
            put(second % 60, digits: 2, at: 17)
            buffer[19] = UInt8(ascii: ".")
            put(fraction, digits: 6, at: 20)
            buffer[26] = UInt8(ascii: "Z")
            return 27
        }
    }

    // MARK: Vocabulary

    static let reactionTypes = ["like", "love", "haha", "wow", "sad"]

    static let firstNames = [
        "Ada", "Bruno", "Chloé", "Dmitri", "Eun-ji", "Farah", "Gustavo", "Hana", "Ivan", "Jamal", "Kofi", "Lena",
        "Mateo", "Nadia", "Oskar", "Priya", "Quentin", "Rosa", "Sven", "Tariq", "Uma", "Viktor", "Wen", "Yara",
        "Zoë", "Łukasz", "Siobhán", "Björn",
    ]

    static let lastNames = [
        "Andersen", "Bianchi", "Costa", "Dubois", "Eriksson", "Fischer", "García", "Horvat", "Ibrahim", "Jensen",
        "Kowalski", "Lindqvist", "Müller", "Novak", "O'Brien", "Petrov", "Quispe", "Rossi", "Sato", "Tanaka",
        "Usman", "Virtanen", "Walsh", "Yilmaz", "Zhang",
    ]

    static let topics = [
        "General", "Random", "Release planning", "Design review", "Support", "Hiring", "Offsite", "Incidents",
        "Book club", "Frontend", "Backend", "Data", "Marketing", "Sales", "Ops",
    ]

    static let words = [
        "the", "deploy", "is", "green", "again", "can", "someone", "review", "my", "PR", "lunch", "at", "noon",
        "I", "think", "we", "should", "ship", "it", "today", "tomorrow", "meeting", "moved", "to", "three",
        "thanks", "great", "work", "on", "this", "looks", "good", "to", "me", "any", "update", "about", "the",
        "migration", "database", "is", "slow", "again", "coffee", "anyone", "build", "failed", "retrying", "now",
        "ok", "sounds", "good", "see", "you", "there", "weekend", "plans", "customer", "reported", "a", "bug",
        "fixed", "in", "main", "rollback", "done", "dashboard", "numbers", "look", "off",
    ]
}
