import Foundation
import ImportBenchSchema
import ImportBenchStore
import Testing

@testable import ImportBenchCore
@testable import ImportBenchPayload

@Suite("Chat payload reader")
struct ChatPayloadReaderTests {
    typealias JSONObject = [String: Any]
    let schema = ChatScenario().schema

    /// An occurrence's comparable content (RecordOccurrence itself is not Equatable).
    struct Snapshot: Equatable, CustomStringConvertible {
        let entity: String
        let key: StoreValue
        let attributes: [StoreValue]
        let toOne: [Reference?]
        let manyToMany: [[Reference]]

        init(
            _ entity: String, _ key: StoreValue, _ attributes: [StoreValue], toOne: [Reference?] = [],
            manyToMany: [[Reference]] = []
        ) {
            self.entity = entity
            self.key = key
            self.attributes = attributes
            self.toOne = toOne
            self.manyToMany = manyToMany
        }

        init(_ occurrence: RecordOccurrence, schema: Schema) {
            self.init(
                schema.entities[occurrence.entity].name, occurrence.key, occurrence.attributes,
                toOne: occurrence.toOne, manyToMany: occurrence.manyToMany)
        }

        var description: String { "\(entity) \(key) \(attributes) \(toOne) \(manyToMany)" }
    }

    func readAll(_ path: String, chunkSize: Int = 1 << 20) throws -> [RecordUnit] {
        let reader = try ChatPayloadReader(path: path, schema: schema, chunkSize: chunkSize)
        var units: [RecordUnit] = []
        while let unit = try reader.nextUnit() { units.append(unit) }
        #expect(try reader.nextUnit() == nil)
        return units
    }

    func withPayload<T>(_ json: String, _ body: (String) throws -> T) throws -> T {
        try withTemporaryPayloadDirectory { directory in
            let file = directory.path("chat.json")
            try Data(json.utf8).write(to: URL(fileURLWithPath: file))
            return try body(file)
        }
    }

    // MARK: Generated payloads

    @Test("every embedded reference points back to an occurrence of its target entity with the same key")
    func referencesPointBackward() throws {
        let units = try withGeneratedChatPayload(scale: 0.04, seed: 5) { path, _ in try readAll(path) }
        #expect(units.count == 2)
        var embeddedReferences = 0
        for unit in units {
            var messageKeysSoFar = Set<StoreValue>()
            for (index, occurrence) in unit.occurrences.enumerated() {
                let entity = schema.entities[occurrence.entity]
                #expect(occurrence.attributes.count == entity.attributes.count)
                #expect(occurrence.toOne.count == entity.toOne.count)
                #expect(occurrence.manyToMany.count == entity.manyToMany.count)
                let references =
                    zip(entity.toOne, occurrence.toOne).compactMap { relationship, reference in
                        reference.map { (schema.targetIndex(of: relationship), $0) }
                    }
                    + zip(entity.manyToMany, occurrence.manyToMany).flatMap { relationship, references in
                        references.map { (schema.targetIndex(of: relationship), $0) }
                    }
                for (target, reference) in references {
                    guard let ordinal = reference.embeddedOrdinal else {
                        // Only quotes are by key; generated quotes name an earlier message of the channel.
                        #expect(entity.name == "message")
                        let quotesEarlierMessage = messageKeysSoFar.contains(reference.key)
                        #expect(quotesEarlierMessage, "\(unit.path) occurrence \(index) quotes \(reference.key)")
                        continue
                    }
                    embeddedReferences += 1
                    #expect(ordinal < index, "\(unit.path) occurrence \(index) refers forward to \(ordinal)")
                    guard ordinal >= 0 && ordinal < index else { continue }
                    #expect(unit.occurrences[ordinal].entity == target)
                    #expect(unit.occurrences[ordinal].key == reference.key)
                }
                if entity.name == "message" { messageKeysSoFar.insert(occurrence.key) }
            }
        }
        #expect(embeddedReferences > 2 * 200 * 2)
    }

    @Test("units follow the document: one per channel, with its path and byte offset, in specification order")
    func occurrenceOrder() throws {
        try withGeneratedChatPayload(scale: 0.04, seed: 9) { path, data in
            let units = try readAll(path)
            let document = try #require(try JSONSerialization.jsonObject(with: data) as? JSONObject)
            let channels = try #require(document["channels"] as? [JSONObject])
            #expect(units.count == channels.count)
            for (index, (unit, channel)) in zip(units, channels).enumerated() {
                #expect(unit.path == "channels[\(index)]")
                #expect(data[unit.byteOffset] == UInt8(ascii: "{"))
                let actual = unit.occurrences.map { "\(schema.entities[$0.entity].name) \($0.key)" }
                #expect(actual == expectedOrder(of: channel))
            }
        }
    }

    /// The specification's order, computed independently from the parsed JSON.
    func expectedOrder(of element: JSONObject) -> [String] {
        func user(_ value: Any?) -> String { "user '\((value as? JSONObject)?["id"] as? String ?? "?")'" }
        var order: [String] = []
        let channel = element["channel"] as? JSONObject ?? [:]
        let cid = channel["cid"] as? String ?? "?"
        if channel["created_by"] != nil { order.append(user(channel["created_by"])) }
        order.append("channel '\(cid)'")
        for message in element["messages"] as? [JSONObject] ?? [] {
            let id = message["id"] as? String ?? "?"
            let reactions = message["latest_reactions"] as? [JSONObject] ?? []
            order.append(user(message["user"]))
            if let quoted = message["quoted_message"] as? JSONObject {
                order.append(user(quoted["user"]))
                order.append("message '\(quoted["id"] as? String ?? "?")'")
            }
            order += reactions.map { user($0["user"]) }
            order += (message["mentioned_users"] as? [Any] ?? []).map(user)
            order.append("message '\(id)'")
            order += reactions.map {
                "reaction '\(id)/\(($0["user"] as? JSONObject)?["id"] as? String ?? "?")/\($0["type"] as? String ?? "?")'"
            }
            order += (message["attachments"] as? [Any] ?? []).indices.map { "attachment '\(id)/\($0)'" }
        }
        for member in element["members"] as? [JSONObject] ?? [] {
            order.append(user(member["user"]))
            order.append("member '\(cid)/\((member["user"] as? JSONObject)?["id"] as? String ?? "?")'")
        }
        for read in element["read"] as? [JSONObject] ?? [] {
            order.append(user(read["user"]))
            order.append("read '\(cid)/\((read["user"] as? JSONObject)?["id"] as? String ?? "?")'")
        }
        return order
    }

    @Test("tiny chunks give the same units as large ones")
    func chunkSizeDoesNotMatter() throws {
        try withGeneratedChatPayload(scale: 0.02, seed: 4) { path, _ in
            let large = try readAll(path).map { $0.occurrences.map { Snapshot($0, schema: schema) } }
            let tiny = try readAll(path, chunkSize: 7).map { $0.occurrences.map { Snapshot($0, schema: schema) } }
            #expect(large == tiny)
        }
    }

    // MARK: Hand-written payloads

    static let handWritten = #"""
        {"duration":"1ms","channels":[
         {"channel":{"cid":"messaging:general","id":"general","type":"messaging","name":"General",
           "created_at":"2024-01-01T00:00:00Z","updated_at":null,"frozen":false,"config":{"x":[1,{"y":"]"}]},
           "created_by":{"id":"u1","name":"Ada \"A\"","role":"admin","image":null,"created_at":"2023-01-01T00:00:00Z",
             "updated_at":"2023-06-01T00:00:00Z","online":true,"extra":{"nested":[1,2]}}},
          "messages":[
           {"id":"m1","text":"hi\n\u00e9","type":"regular","created_at":"t1","pinned":true,
            "user":{"id":"u2","name":"Bo","online":false},
            "latest_reactions":[{"type":"like","score":2,"user":{"id":"u1"},"created_at":"t2","extra":1}],
            "mentioned_users":[{"id":"u3"}],
            "attachments":[{"type":"file","title":"a.pdf","file_size":10,"og_scrape_url":"x"},{}]},
           {"id":"m2","quoted_message_id":"m1","user":{"id":"u3"},"latest_reactions":null}
          ],
          "members":[{"user":{"id":"u1"},"role":"owner","created_at":"t3","banned":false}],
          "read":[{"user":{"id":"u2"},"last_read":"t4"}],
          "watcher_count":5,
          "hidden":false},
         {"channel":{"cid":"messaging:empty"}}
        ],"next":null}
        """#

    @Test("a hand-written payload gives exactly the specified occurrences")
    func exactOccurrences() throws {
        let units = try withPayload(Self.handWritten) { try readAll($0) }
        try #require(units.count == 2)
        let cid: StoreValue = "messaging:general"
        let expected: [Snapshot] = [
            Snapshot("user", "u1", ["Ada \"A\"", "admin", nil, "2023-01-01T00:00:00Z", "2023-06-01T00:00:00Z", 1]),
            Snapshot(
                "channel", cid, ["general", "messaging", "General", "2024-01-01T00:00:00Z", nil, 5],
                toOne: [.embedded("u1", at: 0)]),
            Snapshot("user", "u2", ["Bo", nil, nil, nil, nil, 0]),
            Snapshot("user", "u1", [nil, nil, nil, nil, nil, nil]),
            Snapshot("user", "u3", [nil, nil, nil, nil, nil, nil]),
            Snapshot(
                "message", "m1", ["hi\né", "regular", "t1", nil],
                toOne: [.embedded(cid, at: 1), .embedded("u2", at: 2), nil],
                manyToMany: [[.embedded("u3", at: 4)]]),
            Snapshot(
                "reaction", "m1/u1/like", ["like", 2, "t2"], toOne: [.embedded("m1", at: 5), .embedded("u1", at: 3)]),
            Snapshot(
                "attachment", "m1/0", ["file", "a.pdf", nil, nil, nil, 10], toOne: [.embedded("m1", at: 5)]),
            Snapshot("attachment", "m1/1", [nil, nil, nil, nil, nil, nil], toOne: [.embedded("m1", at: 5)]),
            Snapshot("user", "u3", [nil, nil, nil, nil, nil, nil]),
            Snapshot(
                "message", "m2", [nil, nil, nil, nil],
                toOne: [.embedded(cid, at: 1), .embedded("u3", at: 9), .keyOnly("m1")], manyToMany: [[]]),
            Snapshot("user", "u1", [nil, nil, nil, nil, nil, nil]),
            Snapshot(
                "member", "messaging:general/u1", ["owner", "t3"], toOne: [.embedded(cid, at: 1), .embedded("u1", at: 11)]),
            Snapshot("user", "u2", [nil, nil, nil, nil, nil, nil]),
            Snapshot(
                "read", "messaging:general/u2", ["t4", nil], toOne: [.embedded(cid, at: 1), .embedded("u2", at: 13)]),
        ]
        let actual = units[0].occurrences.map { Snapshot($0, schema: schema) }
        #expect(actual.count == expected.count)
        for (index, (actualOccurrence, expectedOccurrence)) in zip(actual, expected).enumerated() {
            #expect(actualOccurrence == expectedOccurrence, "occurrence \(index)")
        }
        #expect(units[0].path == "channels[0]")
        #expect(units[0].byteOffset == Array(Self.handWritten.utf8).firstIndex(of: UInt8(ascii: "{"), after: 10))

        let empty = units[1].occurrences.map { Snapshot($0, schema: schema) }
        #expect(empty == [Snapshot("channel", "messaging:empty", [nil, nil, nil, nil, nil, nil], toOne: [nil])])
        #expect(units[1].path == "channels[1]")
    }

    struct MissingKeyCase: CustomTestStringConvertible, Sendable {
        let json: String
        let path: String
        var testDescription: String { path }
    }

    static let missingKeyCases: [MissingKeyCase] = [
        MissingKeyCase(
            json: #"{"channels":[{"channel":{"cid":"c"},"messages":[{"id":"m0"},{"text":"no id"}]}]}"#,
            path: "channels[0].messages[1].id"),
        MissingKeyCase(
            json: #"{"channels":[{"channel":{"cid":"a"}},{"channel":{"id":"b"}}]}"#,
            path: "channels[1].channel.cid"),
        MissingKeyCase(
            json: #"{"channels":[{"channel":{"cid":"c"},"messages":[{"id":"m","latest_reactions":[{"type":"like","user":{"name":"x"}}]}]}]}"#,
            path: "channels[0].messages[0].latest_reactions[0].user.id"),
        MissingKeyCase(
            json: #"{"channels":[{"channel":{"cid":"c","created_by":{"id":null}}}]}"#,
            path: "channels[0].channel.created_by.id"),
    ]

    @Test("a missing required key is a PayloadError naming its record path", arguments: missingKeyCases)
    func missingKey(testCase: MissingKeyCase) throws {
        let error = try withPayload(testCase.json) { path -> PayloadError? in
            do {
                _ = try readAll(path)
                return nil
            } catch let error as PayloadError {
                return error
            }
        }
        let payloadError = try #require(error)
        #expect(payloadError.path == testCase.path)
        #expect(payloadError.file.hasSuffix("chat.json"))
        // The offset of the channel element that holds the problem.
        let elementIndex = testCase.path.hasPrefix("channels[1]") ? 1 : 0
        let starts = Array(testCase.json.utf8).indices.filter {
            testCase.json.utf8.dropFirst($0).starts(with: #"{"channel":"#.utf8)
        }
        #expect(payloadError.byteOffset == starts[elementIndex])
        #expect(payloadError.expected == .valueForKey(String(testCase.path.split(separator: ".").last ?? "")))
    }

    @Test("a wrongly typed value and a truncated file are PayloadErrors")
    func malformed() throws {
        let wrongType = #"{"channels":[{"channel":{"cid":"c"},"watcher_count":"many"}]}"#
        #expect(throws: PayloadError.self) { try withPayload(wrongType) { try readAll($0) } }
        let truncated = String(Self.handWritten.dropLast(40))
        let error = try withPayload(truncated) { path -> PayloadError? in
            do {
                _ = try readAll(path)
                return nil
            } catch let error as PayloadError {
                return error
            }
        }
        #expect(error?.found == "end of file")
        #expect(error?.byteOffset == truncated.utf8.count)
    }

    // MARK: Equivalence with the JSONDecoder reader

    func units(from reader: any RecordReader) throws -> [RecordUnit] {
        var units: [RecordUnit] = []
        while let unit = try reader.nextUnit() { units.append(unit) }
        return units
    }

    /// Compares unit by unit and names the first differing occurrence, so a failure stays readable.
    func expectSameUnits(_ actual: [RecordUnit], _ expected: [RecordUnit]) {
        #expect(actual.count == expected.count)
        #expect(!expected.isEmpty)
        for (unit, reference) in zip(actual, expected) {
            #expect(unit.path == reference.path)
            #expect(unit.byteOffset == reference.byteOffset)
            let snapshots = unit.occurrences.map { Snapshot($0, schema: schema) }
            let referenceSnapshots = reference.occurrences.map { Snapshot($0, schema: schema) }
            #expect(snapshots.count == referenceSnapshots.count, "\(unit.path)")
            let pairs = zip(snapshots, referenceSnapshots).enumerated()
            if let (index, (got, wanted)) = pairs.first(where: { $1.0 != $1.1 }) {
                Issue.record("\(unit.path) occurrence \(index): \(got) instead of \(wanted)")
            }
        }
    }

    @Test(
        "generated payloads give exactly the units of the JSONDecoder-based reader",
        arguments: [(0.04, UInt64(7)), (0.1, UInt64(3))])
    func matchesJSONDecoderReader(scale: Double, seed: UInt64) throws {
        try withGeneratedChatPayload(scale: scale, seed: seed) { path, _ in
            let expected = try units(from: JSONDecoderChatReader(path: path, schema: schema))
            let actual = try readAll(path)
            #expect(expected.reduce(0) { $0 + $1.occurrences.count } > 1_000)
            expectSameUnits(actual, expected)
        }
    }

    @Test("the hand-written payload gives exactly the units of the JSONDecoder-based reader")
    func handWrittenMatchesJSONDecoderReader() throws {
        try withPayload(Self.handWritten) { path in
            expectSameUnits(try readAll(path), try units(from: JSONDecoderChatReader(path: path, schema: schema)))
        }
    }

    // MARK: Located errors

    struct LocatedErrorCase: CustomTestStringConvertible, Sendable {
        let json: String
        /// The text whose first byte is where the error must point.
        let marker: String
        let path: String
        let expected: PayloadExpectation
        var testDescription: String { "\(path): \(expected)" }
    }

    static let locatedErrorCases: [LocatedErrorCase] = [
        LocatedErrorCase(
            json: #"{"channels":[{"channel":{"cid":"c"},"watcher_count":"many"}]}"#, marker: #""many""#,
            path: "channels[0].watcher_count", expected: .kind(.integer)),
        LocatedErrorCase(
            json: #"{"channels":[{"channel":{"cid":"a"}},{"channel":{"cid":7}}]}"#, marker: "7}",
            path: "channels[1].channel.cid", expected: .kind(.string)),
        LocatedErrorCase(
            json: #"{"channels":[{"channel":{"cid":"c"},"messages":[{"id":"m"},null]}]}"#, marker: "null",
            path: "channels[0].messages[1]", expected: .kind(.object)),
        LocatedErrorCase(
            json: #"{"channels":[{"channel":{"cid":"c"},"messages":[{"id":"m","user":{"id":"u","online":"yes"}}]}]}"#,
            marker: #""yes""#, path: "channels[0].messages[0].user.online", expected: .kind(.boolean)),
        LocatedErrorCase(
            json: #"{"channels":[{"channel":{"cid":"c"},"messages":[{"id":"m","text":"a\qb"}]}]}"#, marker: #"\q"#,
            path: "channels[0].messages[0].text", expected: .stringContent(.escape)),
        LocatedErrorCase(
            json: #"{"channels":[{"channel":{"cid":"c"},"members":[{"user":{"id":"u","name":"\ud800x"}}]}]}"#,
            marker: #"\ud800"#, path: "channels[0].members[0].user.name", expected: .stringContent(.lowSurrogate)),
        LocatedErrorCase(
            json: #"{"channels":[{"channel":{"cid":"c"},"read":[{"user":{"id":"u"},"unread_messages":tru}]}]}"#,
            marker: "tru}", path: "channels[0].read[0].unread_messages", expected: .literal("true")),
        LocatedErrorCase(
            json: #"{"channels":[{"channel":{"cid":"c"},"messages":[{"id":"m","attachments":[{"file_size":1.5}]}]}]}"#,
            marker: "1.5", path: "channels[0].messages[0].attachments[0].file_size", expected: .kind(.integerWithin64Bits)),
    ]

    @Test("a malformed or wrongly typed value is a PayloadError at its exact byte", arguments: locatedErrorCases)
    func locatedError(testCase: LocatedErrorCase) throws {
        let error = try withPayload(testCase.json) { path -> PayloadError? in
            do {
                _ = try readAll(path)
                return nil
            } catch let error as PayloadError {
                return error
            }
        }
        let payloadError = try #require(error)
        let bytes = Array(testCase.json.utf8)
        let marker = Array(testCase.marker.utf8)
        let markerOffset = try #require(bytes.indices.first { bytes[$0...].starts(with: marker) })
        #expect(payloadError.byteOffset == markerOffset, "\(payloadError)")
        #expect(payloadError.path == testCase.path, "\(payloadError)")
        #expect(payloadError.expected == testCase.expected, "\(payloadError)")
        #expect(payloadError.file.hasSuffix("chat.json"))
    }

    @Test("a schema without the chat entities is refused")
    func wrongSchema() throws {
        let schema = try Schema(name: "other", entities: [Entity("user", key: Attribute("id", .text), attributes: [])])
        _ = try withPayload(#"{"channels":[]}"#) { path in
            #expect(throws: PayloadError.self) { _ = try ChatPayloadReader(path: path, schema: schema) }
        }
    }
}

extension Array where Element: Equatable {
    fileprivate func firstIndex(of element: Element, after start: Int) -> Int? {
        self[start...].firstIndex(of: element)
    }
}
