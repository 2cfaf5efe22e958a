import Foundation
import ImportBenchStore
import Testing

@testable import ImportBenchCore
@testable import ImportBenchPayload

/// The payload layer's catalogue of bad input, reader by reader: where each error points, what it
/// expected and found, which ones `PayloadErrorPolicy.skip` may pass over, and that every error is final.
@Suite("Bad payloads")
struct BadPayloadTests {
    let chat = ChatScenario()

    // MARK: Helpers

    static func goodChannel(_ name: String) -> String {
        #"{"channel":{"cid":"messaging:\#(name)","name":"N \"\#(name)\""},"#
            + #""messages":[{"id":"\#(name)-m1","text":"hi","user":{"id":"u1","name":"Ada"}},"#
            + #"{"id":"\#(name)-m2","user":{"id":"u2"},"latest_reactions":[{"type":"like","user":{"id":"u1"}}]}],"#
            + #""members":[{"user":{"id":"u1"},"role":"owner"}],"watcher_count":2}"#
    }

    /// A chat payload holding the good channels `a` and `c` around `middle`, and where `middle` starts.
    static func chatPayload(around middle: [UInt8]) -> (bytes: [UInt8], middleOffset: Int) {
        let head = Array((#"{"channels":[ "# + goodChannel("a") + ",\n  ").utf8)
        let tail = Array((",\n  " + goodChannel("c") + #" ],"next":null}"# + "\n").utf8)
        return (head + middle + tail, head.count)
    }

    /// Writes `bytes` to a fresh file and runs `body` on its path.
    func withFile<T>(_ bytes: [UInt8], named name: String = "payload.json", _ body: (String) throws -> T) throws -> T {
        try withTemporaryPayloadDirectory { directory in
            let path = directory.path(name)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return try body(path)
        }
    }

    /// Every unit the reader yields until its end or its first error, and that error.
    func drain(_ reader: any RecordReader) -> (units: [RecordUnit], error: PayloadError?) {
        var units: [RecordUnit] = []
        do {
            while let unit = try reader.nextUnit() { units.append(unit) }
            return (units, nil)
        } catch let error as PayloadError {
            return (units, error)
        } catch {
            Issue.record("not a PayloadError: \(error)")
            return (units, nil)
        }
    }

    /// The reader throws `error` again, however often it is asked.
    func expectFinal(_ reader: any RecordReader, _ error: PayloadError, sourceLocation: SourceLocation = #_sourceLocation) {
        for _ in 0..<2 {
            let again = #expect(throws: PayloadError.self, sourceLocation: sourceLocation) { _ = try reader.nextUnit() }
            #expect(again == error, sourceLocation: sourceLocation)
        }
    }

    /// What each policy must make of one bad record: `.fail` throws `expected`, finally; `.skip`
    /// reads on, counting the record under `reason` and keeping its error as the example.
    func expectPolicy(
        _ policy: PayloadErrorPolicy, reader: any RecordReader, error: PayloadError?, expected: PayloadError, reason: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        if policy == .fail {
            #expect(error == expected, sourceLocation: sourceLocation)
            expectFinal(reader, expected, sourceLocation: sourceLocation)
        } else {
            #expect(error == nil, sourceLocation: sourceLocation)
            #expect(reader.skippedRecords == [reason: 1], sourceLocation: sourceLocation)
            #expect(reader.skippedErrors == [expected], sourceLocation: sourceLocation)
        }
    }

    func snapshots(_ units: [RecordUnit]) -> [ChatPayloadReaderTests.Snapshot] {
        units.flatMap(\.occurrences).map { ChatPayloadReaderTests.Snapshot($0, schema: chat.schema) }
    }

    static func offset(of marker: [UInt8], in bytes: [UInt8], from start: Int = 0) -> Int? {
        guard bytes.count >= marker.count else { return nil }
        return (start...(bytes.count - marker.count)).first { bytes[$0..<($0 + marker.count)].elementsEqual(marker) }
    }

    // MARK: The chat catalogue

    struct ChannelCase: CustomTestStringConvertible, Sendable {
        let name: String
        let channel: [UInt8]
        /// Text whose first byte, moved on by `shift`, the error points at; nil for the channel's first byte.
        let marker: [UInt8]?
        let shift: Int
        let path: String
        let expected: PayloadExpectation
        let found: String
        /// Whether the splitter could delimit the channel, so that `.skip` may pass over it.
        let skippable: Bool
        var testDescription: String { name }

        init(
            _ name: String, _ channel: String, at marker: String? = nil, shift: Int = 0, path: String, expected: PayloadExpectation,
            found: String, skippable: Bool = true
        ) {
            self.init(
                name, Array(channel.utf8), at: marker.map { Array($0.utf8) }, shift: shift, path: path, expected: expected,
                found: found, skippable: skippable)
        }

        init(
            _ name: String, _ channel: [UInt8], at marker: [UInt8]?, shift: Int = 0, path: String, expected: PayloadExpectation,
            found: String, skippable: Bool = true
        ) {
            self.name = name
            self.channel = channel
            self.marker = marker
            self.shift = shift
            self.path = path
            self.expected = expected
            self.found = found
            self.skippable = skippable
        }
    }

    static let nestingDepth = 100_000

    static let channelCases: [ChannelCase] = [
        ChannelCase(
            "wrong type", #"{"channel":{"cid":"messaging:b"},"watcher_count":"many"}"#, at: #""many""#,
            path: "channels[1].watcher_count", expected: .kind(.integer), found: #"the string '"many"'"#),
        ChannelCase(
            "not an object", "42", path: "channels[1]", expected: .kind(.object), found: "the number '42'"),
        ChannelCase(
            "missing key", #"{"channel":{"name":"no cid"}}"#, path: "channels[1].channel.cid",
            expected: .valueForKey("cid"), found: "no such key"),
        ChannelCase(
            "null required key", #"{"channel":{"cid":null}}"#, path: "channels[1].channel.cid",
            expected: .valueForKey("cid"), found: "null"),
        ChannelCase(
            "missing key deep inside", #"{"channel":{"cid":"messaging:b"},"messages":[{"id":"m1"},{"id":"m2","user":{"name":"x"}}]}"#,
            path: "channels[1].messages[1].user.id", expected: .valueForKey("id"), found: "no such key"),
        ChannelCase(
            "conflicting duplicate key", #"{"channel":{"cid":"messaging:b"},"messages":[{"id":"m1","user":{"id":"u1","name":"A","id":"u9"}}]}"#,
            at: #""id":"u9""#, path: "channels[1].messages[0].user.id",
            expected: .sameValueForRepeatedKey("id"),
            found: #""id" again with another value: first '"u1"', then '"u9"'"#),
        ChannelCase(
            "missing comma", #"{"channel":{"cid":"messaging:b" "name":"x"}}"#, at: #""name":"x""#,
            path: "channels[1].channel.cid", expected: .comma(orClosing: .object), found: "'\"'"),
        ChannelCase(
            "a quote out of place, restored within the channel",
            #"{"channel":{"cid":"messaging:b","name":"say "hi" now"}}"#, at: #"hi" now"#,
            path: "channels[1].channel.name", expected: .comma(orClosing: .object), found: "'h'"),
        ChannelCase(
            "invalid UTF-8", Array(#"{"channel":{"cid":"messaging:b","name":"caf"#.utf8) + [0xC3, 0x28] + Array(#""}}"#.utf8),
            at: [0xC3, 0x28], path: "channels[1].channel.name", expected: .validUTF8(csvText: false), found: "bytes 0xC3 0x28 0x22 0x7D"),
        ChannelCase(
            "nesting 100,000 deep",
            #"{"channel":{"cid":"messaging:b"},"extra":"# + String(repeating: "[", count: nestingDepth)
                + String(repeating: "]", count: nestingDepth) + "}",
            at: #""extra":"#, shift: 8 + 511,
            path: "channels[1].extra" + String(repeating: "[0]", count: 511), expected: .limit(.nesting, 512), found: "'['"),
        ChannelCase(
            "mismatched bracket", #"{"channel":{"cid":"messaging:b"],"x":1}"#, at: #"],"x""#,
            path: "channels[1]", expected: .value(orClosing: .object), found: "']'", skippable: false),
        ChannelCase(
            "a channel of 100,000 '[' never closed", String(repeating: "[", count: nestingDepth), at: "}\n",
            path: "channels[1]", expected: .value(orClosing: .array), found: "'}'", skippable: false),
    ]

    @Test(
        "each bad channel is a PayloadError at its byte, naming path, expectation and finding; .skip passes over delimited ones",
        arguments: channelCases, PayloadErrorPolicy.allCases)
    func badChannel(testCase: ChannelCase, policy: PayloadErrorPolicy) throws {
        let (bytes, channelOffset) = Self.chatPayload(around: testCase.channel)
        try withFile(bytes) { path in
            var offset = channelOffset
            if let marker = testCase.marker {
                offset = try #require(Self.offset(of: marker, in: bytes, from: channelOffset)) + testCase.shift
            }
            let reader = try chat.openReader(path: path, onError: policy)
            let (units, error) = drain(reader)
            let expectedError = PayloadError(
                file: path, byteOffset: offset, path: testCase.path, expected: testCase.expected, found: testCase.found)

            guard policy == .skip, testCase.skippable else {
                let thrown = try #require(error)
                #expect(thrown == expectedError)
                #expect(units.map(\.path) == ["channels[0]"])
                #expect(reader.skippedRecords.isEmpty && reader.skippedErrors.isEmpty)
                expectFinal(reader, thrown)
                return
            }
            #expect(error == nil)
            #expect(units.map(\.path) == ["channels[0]", "channels[2]"])
            #expect(reader.skippedRecords == ["malformed channel": 1])
            #expect(reader.skippedErrors == [expectedError])
            // Exactly the good channels' units, as a payload without the bad one gives them.
            let clean = Array((#"{"channels":["# + Self.goodChannel("a") + "," + Self.goodChannel("c") + "]}").utf8)
            let cleanUnits = try withFile(clean) { try drain(chat.openReader(path: $0)) }
            #expect(cleanUnits.error == nil)
            #expect(snapshots(units) == snapshots(cleanUnits.units))
            #expect(try reader.nextUnit() == nil)
        }
    }

    @Test("a key repeated with the same value is accepted, and only keys the reader looks up are compared")
    func agreeingDuplicates() throws {
        let channel = #"{"channel":{"cid":"messaging:b","cid":"messaging:b","color":1,"color":2},"watcher_count":3,"watcher_count":3}"#
        let (bytes, _) = Self.chatPayload(around: Array(channel.utf8))
        let units = try withFile(bytes) { try drain(chat.openReader(path: $0)) }
        #expect(units.error == nil)
        #expect(units.units.count == 3)
        #expect(units.units[1].occurrences.last?.key == .text("messaging:b"))
    }

    @Test(
        "two quotes out of place in consecutive channels merge them for the splitter: fatal even with .skip",
        arguments: PayloadErrorPolicy.allCases)
    func mergedChannels(policy: PayloadErrorPolicy) throws {
        let broken =
            #"{"channel":{"cid":"messaging:b","name":"5" screen"}},"#
            + #"{"channel":{"cid":"messaging:c","name":"7" screen"}}"#
        let (bytes, _) = Self.chatPayload(around: Array(broken.utf8))
        try withFile(bytes) { path in
            let reader = try chat.openReader(path: path, onError: policy)
            let (units, error) = drain(reader)
            let thrown = try #require(error)
            #expect(units.count == 1)
            #expect(thrown.path == "channels[1].channel.name")
            #expect(thrown.byteOffset == Self.offset(of: Array(#"screen"}},"#.utf8), in: bytes))
            #expect(thrown.expected == .comma(orClosing: .object))
            if policy == .skip {
                #expect(thrown.found.hasPrefix("'s'; not skipped: a string in channels[1] holds what looks like the start"))
            } else {
                #expect(thrown.found == "'s'")
            }
            #expect(reader.skippedRecords.isEmpty)
            expectFinal(reader, thrown)
        }
    }

    @Test("at most ten skipped errors are kept; every skip is counted")
    func keptErrors() throws {
        let bad = (0..<15).map { #"{"channel":{"cid":\#($0)}}"# }.joined(separator: ",")
        let (bytes, _) = Self.chatPayload(around: Array(bad.utf8))
        let reader = try withFile(bytes) { try chat.openReader(path: $0, onError: .skip) }
        let (units, error) = drain(reader)
        #expect(error == nil)
        #expect(units.map(\.path) == ["channels[0]", "channels[16]"])
        #expect(reader.skippedRecords == ["malformed channel": 15])
        #expect(reader.skippedErrors.map(\.path) == (1...10).map { "channels[\($0)].channel.cid" })
    }

    // MARK: Whole-file damage

    @Test("an empty file says so", arguments: [("", 0, "an empty file"), (" \n\t", 3, "an empty file (only whitespace)")])
    func emptyFile(text: String, offset: Int, found: String) throws {
        try withFile(Array(text.utf8)) { path in
            for policy in PayloadErrorPolicy.allCases {
                let reader = try chat.openReader(path: path, onError: policy)
                let error = try #require(drain(reader).error)
                #expect(
                    error
                        == PayloadError(
                            file: path, byteOffset: offset, path: nil, expected: .openingBrace(of: []), found: found))
                expectFinal(reader, error)
            }
        }
    }

    @Test(
        "a chat payload cut at every byte reads whole or throws, never skips, crashes or hangs",
        .timeLimit(.minutes(2)), arguments: PayloadErrorPolicy.allCases)
    func truncatedAtEveryByte(policy: PayloadErrorPolicy) throws {
        let full = Array((#"{"channels":["# + Self.goodChannel("a") + ", " + Self.goodChannel("b") + #"],"next":null}"#).utf8)
        let complete = try withFile(full) { try drain(chat.openReader(path: $0)) }
        #expect(complete.error == nil)
        let expectedPaths = complete.units.map(\.path)
        #expect(expectedPaths.count == 2)
        try withTemporaryPayloadDirectory { directory in
            let path = directory.path("cut.json")
            for length in 0..<full.count {
                try Data(full[..<length]).write(to: URL(fileURLWithPath: path))
                let reader = try chat.openReader(path: path, onError: policy)
                let (units, error) = drain(reader)
                let thrown = try #require(error, "a payload cut to \(length) bytes read without error")
                #expect(thrown.file == path)
                #expect((0...length).contains(thrown.byteOffset ?? -1), "\(thrown)")
                #expect(units.map(\.path) == Array(expectedPaths.prefix(units.count)))
                #expect(reader.skippedRecords.isEmpty, "cut to \(length): \(reader.skippedRecords)")
                expectFinal(reader, thrown)
            }
        }
    }

    @Test("top-level nesting 100,000 deep outside the array is skipped over; unclosed, it is a clean error")
    func deepNestingOutsideTheArray() throws {
        let depth = Self.nestingDepth
        let balanced =
            #"{"before":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            + #","channels":["# + Self.goodChannel("a") + "]}"
        let read = try withFile(Array(balanced.utf8)) { try drain(chat.openReader(path: $0)) }
        #expect(read.error == nil)
        #expect(read.units.count == 1)

        let unclosed = Array(("{\"before\":" + String(repeating: "[", count: depth)).utf8)
        try withFile(unclosed) { path in
            let error = try #require(drain(try chat.openReader(path: path, onError: .skip)).error)
            #expect(
                error
                    == PayloadError(
                        file: path, byteOffset: unclosed.count, path: nil, expected: .cutShort(.array, startingAt: 10),
                        found: "end of file"))
        }
    }

    // MARK: Long strings

    @Test("strings of several megabytes are read whole, across every chunk boundary", arguments: [4_093, 1 << 20])
    func multiMegabyteStrings(chunkSize: Int) throws {
        // Each piece has escapes, two-byte and four-byte UTF-8, and escaped surrogate pairs.
        let encodedPiece = #"ab\"c\\d\n\u00e9 \ud83c\udf89 é🎉 /\/ "#
        let decodedPiece = "ab\"c\\d\n\u{E9} \u{1F389} é🎉 // "
        let repeats = 4 * 1_048_576 / encodedPiece.utf8.count
        let encoded = String(repeating: encodedPiece, count: repeats)
        let decoded = String(repeating: decodedPiece, count: repeats)
        let channel =
            #"{"channel":{"cid":"messaging:long","name":""# + encoded + #""},"messages":[{"id":"m","text":""#
            + encoded + #""}]}"#
        let (bytes, _) = Self.chatPayload(around: Array(channel.utf8))
        #expect(bytes.count > 8_000_000)
        let read = try withFile(bytes) { path in
            try drain(ChatPayloadReader(path: path, schema: chat.schema, chunkSize: chunkSize))
        }
        #expect(read.error == nil)
        try #require(read.units.count == 3)
        let occurrences = read.units[1].occurrences
        let channelName = try #require(occurrences.first?.attributes[2])
        let messageText = try #require(occurrences.last?.attributes[0])
        #expect(channelName == .text(decoded))
        #expect(messageText == .text(decoded))
    }

    // MARK: Other scenarios

    @Test("a bad quakes feature: thrown with .fail, skipped and counted with .skip", arguments: PayloadErrorPolicy.allCases)
    func badFeature(policy: PayloadErrorPolicy) throws {
        func feature(_ id: String, _ magnitude: String) -> String {
            #"{"type":"Feature","id":"\#(id)","properties":{"mag":\#(magnitude),"place":"x"},"geometry":{"type":"Point","coordinates":[1,2,3]}}"#
        }
        let json =
            #"{"type":"FeatureCollection","features":["#
            + [feature("q1", "1.5"), feature("q2", #""big""#), feature("q3", "2")]
            .joined(separator: ",") + "]}"
        let bytes = Array(json.utf8)
        try withFile(bytes) { path in
            let reader = try QuakesScenario().openReader(path: path, onError: policy)
            let (units, error) = drain(reader)
            let expected = PayloadError(
                file: path, byteOffset: Self.offset(of: Array(#""big""#.utf8), in: bytes), path: "features[1].properties.mag",
                expected: .kind(.number), found: #"the string '"big"'"#)
            expectPolicy(policy, reader: reader, error: error, expected: expected, reason: "malformed feature")
            if policy == .fail {
                #expect(units.map(\.path) == ["features[0]"])
            } else {
                #expect(units.map(\.path) == ["features[0]", "features[2]"])
                #expect(units.map { $0.occurrences[0].key } == [.text("q1"), .text("q3")])
            }
        }
    }

    @Test("a bad product: thrown with .fail, skipped and counted with .skip", arguments: PayloadErrorPolicy.allCases)
    func badProduct(policy: PayloadErrorPolicy) throws {
        let bytes = Array(#"[{"serialCode":"A","stock":1},{"serialCode":"B","stock":"x"},{"serialCode":"C"}]"#.utf8)
        try withFile(bytes) { path in
            let reader = try ProductsScenario().openReader(path: path, onError: policy)
            let (units, error) = drain(reader)
            let expected = PayloadError(
                file: path, byteOffset: Self.offset(of: Array(#""x""#.utf8), in: bytes), path: "[1].stock",
                expected: .kind(.integer), found: #"the string '"x"'"#)
            expectPolicy(policy, reader: reader, error: error, expected: expected, reason: "malformed product")
            if policy == .skip {
                #expect(units.map { $0.occurrences[0].key } == [.text("A"), .text("C")])
            }
        }
    }

    /// Writes a GTFS feed of the given lines per file.
    func withFeed<T>(_ files: [String: [String]], _ body: (String) throws -> T) throws -> T {
        try withTemporaryPayloadDirectory { directory in
            let feed = directory.path("feed")
            try FileManager.default.createDirectory(atPath: feed, withIntermediateDirectories: true)
            for (file, lines) in files {
                try Data((lines.joined(separator: "\n") + "\n").utf8)
                    .write(to: URL(fileURLWithPath: (feed as NSString).appendingPathComponent(file)))
            }
            return try body(feed)
        }
    }

    static let stops = ["stop_id,stop_name,stop_lat", "s1,One,1.5", "s2,Two,2.5"]
    static let trips = ["trip_id,route_id", "t1,R"]

    @Test(
        "a ragged GTFS row names file, line, byte, fields expected and found; .skip leaves it out",
        arguments: [
            ("t1,s2,2,extra", "stop_times.txt line 3", 45, "4 fields"),
            ("t1,s2", "stop_times.txt line 3", 43, "2 fields and the end of the row"),
        ], PayloadErrorPolicy.allCases)
    func raggedRow(row: (text: String, path: String, offset: Int, found: String), policy: PayloadErrorPolicy) throws {
        let stopTimes = ["trip_id,stop_id,stop_sequence", "t1,s1,1", row.text, "t1,s2,3"]
        try withFeed(["stops.txt": Self.stops, "trips.txt": Self.trips, "stop_times.txt": stopTimes]) { feed in
            let reader = try TransitScenario().openReader(path: feed, onError: policy)
            let (units, error) = drain(reader)
            let expected = PayloadError(
                file: (feed as NSString).appendingPathComponent("stop_times.txt"), byteOffset: row.offset, path: row.path,
                expected: .fields(3), found: row.found)
            expectPolicy(policy, reader: reader, error: error, expected: expected, reason: "stop_times.txt: malformed row")
            if policy == .fail {
                #expect(units.count == 4)
            } else {
                #expect(units.suffix(2).map(\.path) == ["stop_times.txt line 2", "stop_times.txt line 4"])
            }
        }
    }

    @Test("a stop that does not read is skipped with .skip, and its stop_times, naming it, are passed on as missing references")
    func badStop() throws {
        let stops = ["stop_id,stop_name,stop_lat", "s1,One,north", "s2,Two,2.5"]
        let stopTimes = ["trip_id,stop_id,stop_sequence", "t1,s1,1", "t1,s2,2"]
        try withFeed(["stops.txt": stops, "trips.txt": Self.trips, "stop_times.txt": stopTimes]) { feed in
            let expected = PayloadError(
                file: (feed as NSString).appendingPathComponent("stops.txt"), byteOffset: 34, path: "stops.txt line 2, column stop_lat",
                expected: .kind(.finiteDecimal), found: "'north'")
            let failing = try TransitScenario().openReader(path: feed)
            let failure = drain(failing)
            #expect(failure.error == expected)
            #expect(failure.units.isEmpty)
            expectFinal(failing, expected)

            let skipping = try TransitScenario().openReader(path: feed, onError: .skip)
            let (units, error) = drain(skipping)
            #expect(error == nil)
            // The stop_time naming the skipped stop is passed on: a missing reference, --missing-reference's to judge.
            #expect(units.map(\.path) == ["stops.txt line 3", "trips.txt line 2", "stop_times.txt line 2", "stop_times.txt line 3"])
            #expect(skipping.skippedRecords == ["stops.txt: malformed row": 1])
            #expect(skipping.skippedErrors == [expected])
        }
    }

    @Test("a quote out of place in a GTFS row is fatal even with .skip: the row's end is unknown")
    func misquotedRow() throws {
        let stopTimes = ["trip_id,stop_id,stop_sequence", "t1,\"s1\"x,1", "t1,s2,2"]
        try withFeed(["stops.txt": Self.stops, "trips.txt": Self.trips, "stop_times.txt": stopTimes]) { feed in
            let reader = try TransitScenario().openReader(path: feed, onError: .skip)
            let (units, error) = drain(reader)
            let thrown = try #require(error)
            #expect(
                thrown
                    == PayloadError(
                        file: (feed as NSString).appendingPathComponent("stop_times.txt"), byteOffset: 37, path: "stop_times.txt line 2",
                        expected: .separatorAfterClosingQuote, found: "'x'"))
            #expect(units.count == 3)
            #expect(reader.skippedRecords.isEmpty)
            expectFinal(reader, thrown)
        }
    }

    @Test("openReader(path:) reads with .fail")
    func defaultPolicy() throws {
        let (bytes, _) = Self.chatPayload(around: Array(#"{"channel":{}}"#.utf8))
        try withFile(bytes) { path in
            let reader = try chat.openReader(path: path)
            #expect(drain(reader).error?.path == "channels[1].channel.cid")
        }
    }
}
