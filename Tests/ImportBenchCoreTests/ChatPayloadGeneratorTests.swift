import Foundation
import ImportBenchStore
import Testing

@testable import ImportBenchCore
@testable import ImportBenchPayload

/// Generates a chat payload into a fresh directory and hands its path and bytes to `body`.
func withGeneratedChatPayload<T>(scale: Double, seed: UInt64, _ body: (String, Data) throws -> T) throws -> T {
    try withTemporaryPayloadDirectory { directory in
        let file = directory.path("chat.json")
        try ChatPayloadGenerator(scale: scale, seed: seed, base: ChatScenario.baseSize).write(to: file)
        return try body(file, try Data(contentsOf: URL(fileURLWithPath: file)))
    }
}

@Suite("Chat payload generator")
struct ChatPayloadGeneratorTests {
    typealias JSONObject = [String: Any]

    func channels(in data: Data) throws -> [JSONObject] {
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? JSONObject)
        return try #require(document["channels"] as? [JSONObject])
    }

    @Test("same scale and seed give identical bytes", arguments: [UInt64(1), 42])
    func deterministic(seed: UInt64) throws {
        let first = try withGeneratedChatPayload(scale: 0.04, seed: seed) { $1 }
        let second = try withGeneratedChatPayload(scale: 0.04, seed: seed) { $1 }
        #expect(first.count > 10_000)
        #expect(first == second)
    }

    @Test("different seeds give different bytes")
    func seedMatters() throws {
        let first = try withGeneratedChatPayload(scale: 0.04, seed: 1) { $1 }
        let second = try withGeneratedChatPayload(scale: 0.04, seed: 2) { $1 }
        #expect(first != second)
    }

    @Test("sizes follow the scale", arguments: [(0.04, 2, 20), (0.001, 1, 2), (1.0, 50, 500), (2.5, 125, 1_250)])
    func sizes(scale: Double, channels: Int, users: Int) {
        let generator = ChatPayloadGenerator(scale: scale, seed: 1, base: ChatScenario.baseSize)
        #expect(generator.channelCount == channels)
        #expect(generator.userCount == users)
        #expect(generator.messagesPerChannel == 200)
        #expect(generator.membersPerChannel == min(10, users)...min(80, users))
    }

    @Test("rejects a scale that is not positive", arguments: [0.0, -1.0, .nan, .infinity])
    func invalidScale(scale: Double) throws {
        try withTemporaryPayloadDirectory { directory in
            let generator = ChatPayloadGenerator(scale: scale, seed: 1, base: ChatScenario.baseSize)
            #expect(throws: PayloadError.self) {
                try generator.write(to: directory.path("chat.json"))
            }
        }
    }

    @Test("counts, distinctness and references match the payload specification")
    func structure() throws {
        let channels = try withGeneratedChatPayload(scale: 0.04, seed: 7) { try self.channels(in: $1) }
        #expect(channels.count == 2)
        var messageIDs = Set<String>()
        var olderQuotes = 0
        var profiles: [String: [String]] = [:]
        var volatileValues: [String: Set<String>] = [:]

        func checkUser(_ value: Any?) throws -> String {
            let user = try #require(value as? JSONObject)
            let id = try #require(user["id"] as? String)
            #expect(id.hasPrefix("user-"))
            let fixed = ["name", "role", "image", "created_at"].map { "\(user[$0] ?? "missing")" }
            if let known = profiles[id] {
                #expect(known == fixed, "user \(id) changed a fixed field")
            }
            profiles[id] = fixed
            #expect(user["online"] is Bool)
            volatileValues[id, default: []].insert("\(user["updated_at"] ?? "")|\(user["online"] ?? "")")
            return id
        }

        for (channelIndex, element) in channels.enumerated() {
            let channel = try #require(element["channel"] as? JSONObject)
            let id = try #require(channel["id"] as? String)
            #expect(channel["cid"] as? String == "messaging:\(id)")
            let creator = try checkUser(channel["created_by"])

            let members = try #require(element["members"] as? [JSONObject])
            let memberIDs = try members.map { try checkUser($0["user"]) }
            #expect((10...20).contains(memberIDs.count))
            #expect(Set(memberIDs).count == memberIDs.count, "members are distinct")
            #expect(memberIDs.first == creator)

            let reads = try #require(element["read"] as? [JSONObject])
            let readIDs = try reads.map { try checkUser($0["user"]) }
            #expect(Set(readIDs).count == readIDs.count, "reads are distinct")
            #expect(Set(readIDs).isSubset(of: Set(memberIDs)))
            #expect(!readIDs.isEmpty && readIDs.count < memberIDs.count)

            let messages = try #require(element["messages"] as? [JSONObject])
            #expect(messages.count == 200)
            var earlierInChannel: [String: JSONObject] = [:]
            for message in messages {
                let messageID = try #require(message["id"] as? String)
                #expect(messageID.hasPrefix("msg-\(channelIndex)-"))
                #expect(messageIDs.insert(messageID).inserted, "message ids are unique across the payload")
                _ = try checkUser(message["user"])
                if let quoted = message["quoted_message_id"] {
                    // The quote is embedded whole: an earlier message of the channel as the page has
                    // it, or one older than the page.
                    let quotedID = try #require(quoted as? String)
                    let copy = try #require(message["quoted_message"] as? JSONObject, "\(messageID) quotes \(quotedID) without the message")
                    #expect(copy["id"] as? String == quotedID)
                    _ = try checkUser(copy["user"])
                    if let earlier = earlierInChannel[quotedID] {
                        for field in ["text", "created_at", "updated_at", "quoted_message_id"] {
                            #expect(copy[field] as? String == earlier[field] as? String, "\(messageID)'s copy of \(quotedID): \(field)")
                        }
                    } else {
                        #expect(
                            quotedID.hasPrefix("msg-\(channelIndex)-old-"),
                            "\(messageID) quotes \(quotedID), neither earlier in its channel nor older")
                        olderQuotes += 1
                    }
                } else {
                    #expect(message["quoted_message"] == nil)
                }
                earlierInChannel[messageID] = message

                let reactions = try #require(message["latest_reactions"] as? [JSONObject])
                #expect(reactions.count <= 3)
                let pairs = try reactions.map { "\(try checkUser($0["user"]))/\($0["type"] ?? "")" }
                #expect(Set(pairs).count == pairs.count, "reaction (user, type) pairs are unique")

                let mentioned = try #require(message["mentioned_users"] as? [JSONObject]).map { try checkUser($0) }
                #expect(mentioned.count <= 2 && Set(mentioned).count == mentioned.count)
                #expect(Set(mentioned).isSubset(of: Set(memberIDs)))

                let attachments = try #require(message["attachments"] as? [JSONObject])
                #expect(attachments.count <= 2)
                for attachment in attachments {
                    #expect(attachment["file_size"] is Int)
                }
            }
        }
        // "Last occurrence wins" must be observable: some user shows different updated_at/online values.
        #expect(volatileValues.values.contains { $0.count > 1 })
        // Some quotes bring a message the page does not hold, as real channel lists do.
        #expect(olderQuotes > 0)
    }

    @Test("proportions and popularity skew are close to the specification")
    func distribution() throws {
        let channels = try withGeneratedChatPayload(scale: 0.2, seed: 3) { try self.channels(in: $1) }
        let messages = channels.flatMap { $0["messages"] as? [JSONObject] ?? [] }
        #expect(messages.count == 2_000)
        func share(_ predicate: (JSONObject) -> Bool) -> Double {
            Double(messages.filter(predicate).count) / Double(messages.count)
        }
        func count(_ key: String, in message: JSONObject) -> Int { (message[key] as? [Any])?.count ?? 0 }
        let quoted = share { $0["quoted_message_id"] != nil }
        let mentions = share { count("mentioned_users", in: $0) > 0 }
        let attachments = share { count("attachments", in: $0) > 0 }
        let meanReactions = Double(messages.reduce(0) { $0 + count("latest_reactions", in: $1) }) / Double(messages.count)
        #expect((0.03...0.07).contains(quoted))
        #expect((0.07...0.13).contains(mentions))
        #expect((0.12...0.18).contains(attachments))
        #expect((1.3...1.7).contains(meanReactions))

        // Zipf: the busiest author writes far more than an even share.
        var authors: [String: Int] = [:]
        for message in messages {
            if let id = (message["user"] as? JSONObject)?["id"] as? String { authors[id, default: 0] += 1 }
        }
        let busiest = authors.values.max() ?? 0
        #expect(Double(busiest) > 5 * Double(messages.count) / Double(authors.count))
    }

    @Test(
        "formats timestamps as ISO-8601 with microseconds in UTC",
        arguments: [
            (Int64(0), "1970-01-01T00:00:00.000000Z"),
            (1_709_647_629_123_456, "2024-03-05T14:07:09.123456Z"),
            (1_709_251_199_999_999, "2024-02-29T23:59:59.999999Z"),
            (-500_000, "1969-12-31T23:59:59.500000Z"),
            (4_107_542_400_000_000, "2100-03-01T00:00:00.000000Z"),
        ])
    func timestamps(microseconds: Int64, expected: String) {
        #expect(ChatPayloadGenerator.timestamp(microseconds) == expected)
    }
}

/// FNV-1a over bytes: a fingerprint of a whole payload, to pin it to the bytes recorded results were measured on.
func fingerprint(_ data: Data, continuing value: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
    data.reduce(value) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
}

@Suite("Chat refresh preload")
struct ChatPreloadTests {
    /// Per owner, the keys of its owned children as the chat reader reports them.
    struct Children {
        var messageText: [StoreValue: StoreValue] = [:]
        var messageChannel: [StoreValue: StoreValue] = [:]
        var channelName: [StoreValue: StoreValue] = [:]
        /// Reaction and attachment keys by message, mentioned user ids by message.
        var reactions: [StoreValue: Set<StoreValue>] = [:]
        var attachments: [StoreValue: Set<StoreValue>] = [:]
        var mentions: [StoreValue: Set<StoreValue>] = [:]
        /// User ids by channel cid.
        var members: [StoreValue: Set<StoreValue>] = [:]
        var readers: [StoreValue: Set<StoreValue>] = [:]

        init(path: String) throws {
            let schema = ChatScenario().schema
            let index = { (name: String) in try #require(schema.index(of: name)) }
            let (channel, message, reaction, attachment, member, read) = try (
                index("channel"), index("message"), index("reaction"), index("attachment"), index("member"), index("read")
            )
            let channelName = try #require(schema.entities[channel].attributes.firstIndex { $0.name == "name" })
            let reader = try ChatPayloadReader(path: path, schema: schema)
            while let unit = try reader.nextUnit() {
                for occurrence in unit.occurrences {
                    let owner = occurrence.toOne.first??.key ?? .null
                    switch occurrence.entity {
                    case channel:
                        self.channelName[occurrence.key] = occurrence.attributes[channelName]
                    case message:
                        messageText[occurrence.key] = occurrence.attributes[0]
                        messageChannel[occurrence.key] = owner
                        // A message precedes its children; an empty set makes "had none" comparable.
                        reactions[occurrence.key] = []
                        attachments[occurrence.key] = []
                        mentions[occurrence.key] = Set(occurrence.manyToMany[0].map(\.key))
                    case reaction: reactions[owner, default: []].insert(occurrence.key)
                    case attachment: attachments[owner, default: []].insert(occurrence.key)
                    case member: members[owner, default: []].insert(occurrence.toOne[1]?.key ?? .null)
                    case read: readers[owner, default: []].insert(occurrence.toOne[1]?.key ?? .null)
                    default: break
                    }
                }
            }
        }
    }

    /// For owners in both, what `earlier` holds beyond `later`, keeping only owners with something;
    /// also checks that `earlier` lost nothing `later` has.
    func dropped(
        _ earlier: [StoreValue: Set<StoreValue>], _ later: [StoreValue: Set<StoreValue>]
    ) -> [StoreValue: Set<StoreValue>] {
        var result: [StoreValue: Set<StoreValue>] = [:]
        for (owner, laterChildren) in later {
            guard let earlierChildren = earlier[owner] else { continue }
            #expect(laterChildren.isSubset(of: earlierChildren), "\(owner) gained children after the preload")
            let extra = earlierChildren.subtracting(laterChildren)
            if !extra.isEmpty { result[owner] = extra }
        }
        return result
    }

    func generate(scale: Double, seed: UInt64, changed: Double) throws -> (later: Children, earlier: Children, sameBytes: Bool) {
        try withTemporaryPayloadDirectory { directory in
            let generator = ChatPayloadGenerator(scale: scale, seed: seed, base: ChatScenario.baseSize)
            let (payload, preload) = (directory.path("payload.json"), directory.path("preload.json"))
            try generator.write(to: payload)
            try generator.preload(overlap: 1, changed: changed, base: ChatScenario.baseSize).write(to: preload)
            let sameBytes = try Data(contentsOf: URL(fileURLWithPath: payload)) == Data(contentsOf: URL(fileURLWithPath: preload))
            return (try Children(path: payload), try Children(path: preload), sameBytes)
        }
    }

    @Test("changed channels and most of their messages hold children the later payload has dropped")
    func droppedChildren() throws {
        let (later, earlier, _) = try generate(scale: 0.2, seed: 9, changed: 0.5)
        #expect(Set(earlier.messageText.keys) == Set(later.messageText.keys))
        let changedChannels = Set(later.channelName.keys.filter { earlier.channelName[$0] != later.channelName[$0] })
        let changedMessages = Set(later.messageText.keys.filter { earlier.messageText[$0] != later.messageText[$0] })
        #expect(!changedChannels.isEmpty && changedChannels.count < later.channelName.count)
        // Messages older than the page, which quotes embed, are never edited.
        let pageMessages = later.messageChannel.filter { message, channel in
            guard case .text(let id) = message else { return true }
            return changedChannels.contains(channel) && !id.contains("-old-")
        }
        #expect(changedMessages == Set(pageMessages.keys))

        let reactions = dropped(earlier.reactions, later.reactions)
        let attachments = dropped(earlier.attachments, later.attachments)
        let mentions = dropped(earlier.mentions, later.mentions)
        let losing = Set(reactions.keys)
        // One dropped reaction and one dropped mention per losing message; some changed messages lose nothing.
        #expect(reactions.values.allSatisfy { $0.count == 1 })
        #expect(reactions.values.reduce(0) { $0 + $1.count } == losing.count)
        #expect(losing.isSubset(of: changedMessages))
        #expect(!losing.isEmpty && losing.count < changedMessages.count)
        #expect(Set(mentions.keys) == losing && mentions.values.allSatisfy { $0.count == 1 })

        // An attachment after the last on every losing message that has attachments, and on a few without.
        #expect(Set(attachments.keys).isSubset(of: losing))
        for message in losing {
            let kept = later.attachments[message]?.count ?? 0
            guard case .text(let id) = message, let extra = attachments[message] else {
                #expect(kept == 0, "\(message) kept \(kept) attachments but dropped none")
                continue
            }
            #expect(extra == [.text("\(id)/\(kept)")])
        }
        #expect(attachments.keys.contains { later.attachments[$0]?.isEmpty == true })

        // Every changed channel, and only those, had one more member, who also had a read state.
        let members = dropped(earlier.members, later.members)
        let readers = dropped(earlier.readers, later.readers)
        #expect(Set(members.keys) == changedChannels)
        #expect(members.values.allSatisfy { $0.count == 1 })
        #expect(readers == members)
    }

    @Test("with nothing changed the preload holds no dropped children: it is the payload itself")
    func nothingDropped() throws {
        let (later, earlier, sameBytes) = try generate(scale: 0.1, seed: 9, changed: 0)
        #expect(sameBytes)
        for (earlierSets, laterSets) in [
            (earlier.reactions, later.reactions), (earlier.attachments, later.attachments), (earlier.mentions, later.mentions),
            (earlier.members, later.members), (earlier.readers, later.readers),
        ] {
            #expect(dropped(earlierSets, laterSets).isEmpty)
        }
    }

    @Test("a preload's dropped children leave the measured payload's bytes as they were")
    func payloadBytesUnchanged() throws {
        let bytes = try withGeneratedChatPayload(scale: 0.2, seed: 1) { $1 }
        // Recorded when quotes became embedded messages (issue 13), before preloads gained dropped
        // children too: recorded results were measured on these bytes.
        #expect(fingerprint(bytes) == 2_138_219_525_526_444_996)
    }

    @Test("preload children are well formed: unique keys, reaction counts matching, member count matching")
    func preloadWellFormed() throws {
        let channels = try withTemporaryPayloadDirectory { directory in
            let path = directory.path("preload.json")
            try ChatPayloadGenerator(scale: 0.1, seed: 4, base: ChatScenario.baseSize)
                .preload(overlap: 1, changed: 0.5, base: ChatScenario.baseSize).write(to: path)
            let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
            return try #require((document as? [String: Any])?["channels"] as? [[String: Any]])
        }
        typealias JSONObject = [String: Any]
        func userID(_ value: Any?) -> String { (value as? JSONObject)?["id"] as? String ?? "" }
        for element in channels {
            let channel = try #require(element["channel"] as? JSONObject)
            let members = try #require(element["members"] as? [JSONObject]).map { userID($0["user"]) }
            let readers = try #require(element["read"] as? [JSONObject]).map { userID($0["user"]) }
            #expect(channel["member_count"] as? Int == members.count)
            #expect(Set(members).count == members.count && Set(readers).count == readers.count)
            for message in try #require(element["messages"] as? [JSONObject]) {
                let reactions = try #require(message["latest_reactions"] as? [JSONObject])
                let pairs = reactions.map { "\(userID($0["user"]))/\($0["type"] ?? "")" }
                #expect(Set(pairs).count == pairs.count)
                let counts = Dictionary(grouping: reactions) { $0["type"] as? String ?? "" }.mapValues(\.count)
                #expect(message["reaction_counts"] as? [String: Int] == counts)
                let mentioned = try #require(message["mentioned_users"] as? [JSONObject]).map { userID($0) }
                #expect(Set(mentioned).count == mentioned.count)
            }
        }
    }
}

@Suite("Seeded random")
struct SeededRandomTests {
    @Test("the same seed replays the same sequence; other seeds and streams differ")
    func replay() {
        var first = SeededRandom(seed: 99)
        var second = SeededRandom(seed: 99)
        var other = SeededRandom(seed: 100)
        let a = (0..<100).map { _ in first.next() }
        #expect(a == (0..<100).map { _ in second.next() })
        #expect(a != (0..<100).map { _ in other.next() })
        #expect(SeededRandom.subSeed(1, stream: 2, index: 0) != SeededRandom.subSeed(1, stream: 2, index: 1))
        #expect(SeededRandom.subSeed(1, stream: 2, index: 0) != SeededRandom.subSeed(1, stream: 3, index: 0))
    }

    @Test("first SplitMix64 outputs match the reference implementation")
    func reference() {
        // Reference values of SplitMix64 seeded with 0 (Vigna's splitmix64.c).
        var random = SeededRandom(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
    }

    @Test("bounded integers stay in range and cover it")
    func bounded() {
        var random = SeededRandom(seed: 5)
        var seen = Set<Int>()
        for _ in 0..<2_000 {
            let value = random.nextInt(in: 10...20)
            #expect((10...20).contains(value))
            seen.insert(value)
        }
        #expect(seen.count == 11)
    }

    @Test("Zipf ranks are skewed toward rank 0 and cover the tail")
    func zipf() {
        let sampler = ZipfSampler(count: 50, exponent: 1.1)
        var random = SeededRandom(seed: 11)
        var counts = [Int](repeating: 0, count: 50)
        for _ in 0..<50_000 { counts[sampler.sample(using: &random)] += 1 }
        #expect(counts[0] > counts[1] && counts[1] > counts[4] && counts[4] > counts[40])
        // 1 / H(50, 1.1) ≈ 0.25 of all draws go to rank 0.
        #expect((0.22...0.29).contains(Double(counts[0]) / 50_000))
        #expect(counts.allSatisfy { $0 > 0 })
    }
}

@Suite("JSON text writer")
struct JSONTextWriterTests {
    func written(bufferCapacity: Int, _ body: (JSONTextWriter) -> Void) throws -> String {
        try withTemporaryPayloadDirectory { directory in
            let file = directory.path("out.json")
            let writer = try JSONTextWriter(path: file, bufferCapacity: bufferCapacity)
            body(writer)
            try writer.close()
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            #expect(data.count == writer.bytesWritten)
            return String(decoding: data, as: UTF8.self)
        }
    }

    @Test("places commas and colons, and escapes quotes, backslashes and control characters", arguments: [1, 64, 1 << 20])
    func compactOutput(bufferCapacity: Int) throws {
        let text = try written(bufferCapacity: bufferCapacity) { writer in
            writer.beginObject()
            writer.key("a")
            writer.beginArray()
            writer.integer(1)
            writer.integer(-20)
            writer.beginObject()
            writer.field("b", true)
            writer.endObject()
            writer.beginArray()
            writer.endArray()
            writer.endArray()
            writer.key("c")
            writer.null()
            writer.field("s", "q\"b\\n\n\u{1}\u{1F}é🎉")
            writer.field("min", Int.min)
            writer.endObject()
        }
        #expect(text == #"{"a":[1,-20,{"b":true},[]],"c":null,"s":"q\"b\\n\u000a\u0001\u001fé🎉","min":-9223372036854775808}"#)
    }

    @Test("every control character and mixed text round-trips through a JSON parser")
    func roundTrip() throws {
        let strings =
            (0..<0x20).map { "x\(Character(Unicode.Scalar(UInt8($0))))y" } + ["", "\"\\/", "日本語 ✓ 🎉", String(repeating: "ab\"", count: 500)]
        let text = try written(bufferCapacity: 100) { writer in
            writer.beginArray()
            for string in strings { writer.string(string) }
            writer.endArray()
        }
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String]
        #expect(parsed == strings)
    }

    @Test("reports an unwritable path as PayloadError")
    func unwritable() {
        #expect(throws: PayloadError.self) { _ = try JSONTextWriter(path: "/nonexistent/dir/out.json") }
    }
}
