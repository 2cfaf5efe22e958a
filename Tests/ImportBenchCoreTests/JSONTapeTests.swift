import Foundation
import Testing

@testable import ImportBenchCore
@testable import ImportBenchPayload

@Suite("JSON tape")
struct JSONTapeTests {
    /// A parsed value in comparable form; objects keep their member order.
    indirect enum Tree: Equatable, CustomStringConvertible {
        case object([Member])
        case array([Tree])
        case string(String)
        case number(Double)
        case bool(Bool)
        case null

        struct Member: Equatable {
            let key: String
            let value: Tree
        }

        init(_ value: JSONValue) throws {
            switch value.kind {
            case .object: self = .object(try value.object().map { Member(key: $0.key, value: try Tree($0.value)) })
            case .array: self = .array(try value.array().map { try Tree($0) })
            case .string: self = .string(try value.string())
            case .number: self = .number(try value.double())
            case .bool: self = .bool(try value.bool())
            case .null: self = .null
            }
        }

        var description: String {
            switch self {
            case .object(let members):
                return "{" + members.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
            case .array(let elements): return "[" + elements.map(\.description).joined(separator: ", ") + "]"
            case .string(let text): return text.debugDescription
            case .number(let number): return "\(number)"
            case .bool(let flag): return "\(flag)"
            case .null: return "null"
            }
        }
    }

    func tape(_ json: String, baseOffset: Int = 0, recordPath: String = "") throws -> JSONTape {
        try JSONTape(bytes: Array(json.utf8), baseOffset: baseOffset, file: "test.json", recordPath: recordPath)
    }

    /// The error of parsing `bytes`, or nil if they parse.
    func parseError(_ bytes: [UInt8], baseOffset: Int = 1000) -> PayloadError? {
        do {
            _ = try JSONTape(bytes: bytes, baseOffset: baseOffset, file: "test.json", recordPath: "element")
            return nil
        } catch {
            return error
        }
    }

    /// The error `body` throws, or nil.
    func thrownError<T>(_ body: () throws -> T) -> PayloadError? {
        do {
            _ = try body()
            return nil
        } catch let error as PayloadError {
            return error
        } catch {
            Issue.record("not a PayloadError: \(error)")
            return nil
        }
    }

    /// Offset of the first occurrence of `marker` in `json`.
    func offset(of marker: String, in json: String) throws -> Int {
        let bytes = Array(json.utf8)
        let needle = Array(marker.utf8)
        return try #require(bytes.indices.first { bytes[$0...].starts(with: needle) })
    }

    // MARK: Valid input

    @Test("reads nested objects and arrays in document order")
    func nested() throws {
        let json = #" { "a" : {"b":[1,{"c":[]}],"d":{}},"e":[[[]]],"f":"x","g":[true,false,null] } "#
        let expected = Tree.object([
            .init(
                key: "a",
                value: .object([
                    .init(key: "b", value: .array([.number(1), .object([.init(key: "c", value: .array([]))])])),
                    .init(key: "d", value: .object([])),
                ])),
            .init(key: "e", value: .array([.array([.array([])])])),
            .init(key: "f", value: .string("x")),
            .init(key: "g", value: .array([.bool(true), .bool(false), .null])),
        ])
        #expect(try Tree(tape(json).root) == expected)
        let root = try tape(json).root.object()
        #expect(root.count == 4)
        #expect(try root.required("e").array().count == 1)
        #expect(try root.required("a").object().required("b").array().count == 2)
    }

    @Test("accepts whitespace everywhere JSON allows it, and any value at the root")
    func whitespaceAndScalarRoots() throws {
        #expect(try Tree(tape(" \t\r\n[ 1 ,\n\"a\" ] \r\n").root) == .array([.number(1), .string("a")]))
        #expect(try tape(" \"only\" ").root.string() == "only")
        #expect(try tape("null").root.isNull)
        #expect(try tape("-7").root.int64() == -7)
    }

    static let escapeCases: [(json: String, text: String)] = [
        (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{C}\n\r\t"),
        (#""\u00e9\u00E9\u20AC""#, "éé€"),
        (#""\ud83d\ude00""#, "😀"),
        (#""a\uD83D\uDE00b""#, "a😀b"),
        (#""\u0000\u001f""#, "\u{0}\u{1F}"),
        (#""café ✓ 🎉""#, "café ✓ 🎉"),
        (#""""#, ""),
        (#""plain ascii text longer than one machine word""#, "plain ascii text longer than one machine word"),
        (#""0123456789abcdef\"0123456789\\x""#, "0123456789abcdef\"0123456789\\x"),
    ]

    @Test("decodes strings, escapes and surrogate pairs", arguments: escapeCases)
    func strings(json: String, text: String) throws {
        #expect(try tape(json).root.string() == text)
        #expect(try tape("{\(json):1}").root.object()[text] != nil, "escaped keys match their decoded text")
    }

    @Test("members are found in any lookup order, and absent keys (however alike) are not")
    func lookupOrder() throws {
        let keys = (0..<20).map { "key_\($0)_\(String(repeating: "x", count: $0))" }
        let json = "{" + keys.enumerated().map { "\"\($1)\":\($0)" }.joined(separator: ",") + "}"
        let object = try tape(json).root.object()
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5 {
            for (value, key) in keys.enumerated().shuffled(using: &generator) {
                #expect(try object.int64(key) == Int64(value))
                #expect(try object.int64(key + "y") == nil)
                #expect(try object.int64("k" + key) == nil)
                #expect(try object.int64(String(key.dropLast()) + "z") == nil)
            }
        }
    }

    @Test("keys of every length from 1 to 24 match exactly: a difference at any byte is another key")
    func keyComparison() throws {
        for length in 1...24 {
            let key = String((0..<length).map { Character(Unicode.Scalar(UInt8(97 + $0 % 26))) })
            let object = try tape("{\"\(key)\":1}").root.object()
            let members = JSONMemberSet([key])
            let slots = JSONMemberSlots(for: members)
            #expect(try object.int64(key) == 1)
            try object.find(members, into: slots)
            #expect(slots.values[0] >= 0)
            for position in 0..<length {
                var bytes = Array(key.utf8)
                bytes[position] = UInt8(ascii: "Z")
                let other = String(decoding: bytes, as: UTF8.self)
                #expect(try object.int64(other) == nil, "\(other) is not \(key)")
                let otherSlots = JSONMemberSlots(for: JSONMemberSet([other]))
                try object.find(JSONMemberSet([other]), into: otherSlots)
                #expect(otherSlots.values[0] == -1)
            }
        }
    }

    @Test("a member set is found in one pass: present, absent, null and escaped keys, and conflicting repeats refused")
    func memberSet() throws {
        let members = JSONMemberSet(["id", "name", "online", "missing"])
        let slots = JSONMemberSlots(for: members)
        let plain = try tape(#"{"online":true,"x":1,"name":null,"id":"u1"}"#).root.object()
        try plain.find(members, into: slots)
        #expect(try plain.value.tape.string(at: slots.values[0]) == "u1")
        #expect(plain.value.tape.tokens[slots.values[1]].kind == .null)
        #expect(try plain.value.tape.bool(at: slots.values[2]))
        #expect(slots.values[3] == -1)

        let escaped = try tape(#"{"n\u0061me":"A","id":"u2"}"#).root.object()
        try escaped.find(members, into: slots)
        #expect(try escaped.value.tape.string(at: slots.values[1]) == "A", "a key with escapes matches its decoded name")
        #expect(try escaped.value.tape.string(at: slots.values[0]) == "u2")

        let agreeing = try tape(#"{"id":"u3","id":"u3"}"#).root.object()
        try agreeing.find(members, into: slots)
        #expect(try agreeing.value.tape.string(at: slots.values[0]) == "u3")
        let conflicting = try tape(#"{"id":"u3","id":"u4"}"#).root.object()
        #expect(throws: PayloadError.self) { try conflicting.find(members, into: slots) }
    }

    /// A USGS feature's properties (26 keys) collide in the 32 key signatures; compared key by
    /// key they are found distinct, so lookups stop at the last wanted member.
    @Test("an object of up to 64 distinct keys is not flagged as maybe repeating one; one repeat among them is", arguments: [26, 64])
    func distinctKeysUpToTheComparedCount(_ count: Int) throws {
        let members = (0..<count).map { "\"key\($0)\":\($0)" }
        let distinct = try tape("{" + members.joined(separator: ",") + "}").root
        #expect(!distinct.tape.tokens[distinct.index].flags.contains(.mayRepeatKeys))
        let repeated = try tape("{" + members.dropLast().joined(separator: ",") + ",\"key3\":3}").root
        #expect(repeated.tape.tokens[repeated.index].flags.contains(.mayRepeatKeys))
    }

    @Test(
        "an object of 300 keys (more than the 256 key signatures, so some collide past the 64th key), which the parser flags as maybe repeating one, is still found in one pass: the slots one lookup per name gives, agreeing repeats accepted, a conflicting one refused with the same error"
    )
    func memberSetInLargeObject() throws {
        let keys = (0..<300).map { "property_\($0)" }
        let wanted = JSONMemberSet(keys.filter { $0.hasSuffix("7") || $0.hasSuffix("2") } + ["absent"])
        let slots = JSONMemberSlots(for: wanted)
        func object(_ tail: String) throws -> JSONObject {
            try tape("{" + keys.enumerated().map { "\"\($1)\":\($0)" }.joined(separator: ",") + tail + "}").root.object()
        }
        for tail in ["", #","property_7":7"#, #","property_2":2,"property_2":2"#] {
            let large = try object(tail)
            #expect(large.value.tape.tokens[large.value.index].flags.contains(.mayRepeatKeys))
            try large.find(wanted, into: slots)
            for (position, name) in wanted.names.enumerated() {
                #expect(slots.values[position] == (try large.value.tape.memberValueIndex(inObject: large.value.index, key: name) ?? -1), "\(name)")
            }
            #expect(try large.value.tape.int64(at: slots.values[0]) == 2)
        }
        let conflicting = try object(#","property_17":1"#)
        let perName = #expect(throws: PayloadError.self) { try conflicting.int64("property_17") }
        let onePass = #expect(throws: PayloadError.self) { try conflicting.find(wanted, into: slots) }
        #expect(onePass == perName)
    }

    @Test("finds a quote, an escape, a control or a non-ASCII byte at every position of a sixteen-byte block")
    func wordBoundaries() throws {
        for length in 0..<40 {
            let prefix = String(repeating: "x", count: length)
            #expect(try tape("\"\(prefix)\"").root.string() == prefix)
            #expect(try tape("\"\(prefix)\\n\(prefix)\"").root.string() == prefix + "\n" + prefix)
            #expect(try tape("\"\(prefix)é\(prefix)\"").root.string() == prefix + "é" + prefix)
            #expect(parseError(Array("\"\(prefix)\u{1}\"".utf8))?.byteOffset == 1000 + 1 + length)
            #expect(parseError(Array("\"\(prefix)\u{1F}\"".utf8))?.byteOffset == 1000 + 1 + length)
            #expect(try tape("\"\(prefix)\u{7F} ~\"").root.string() == prefix + "\u{7F} ~", "DEL, space and '~' need no look")
        }
    }

    struct NumberCase: CustomTestStringConvertible, Sendable {
        let json: String
        /// nil: `int64()` throws.
        let integer: Int64?
        /// nil: `double()` throws.
        let double: Double?
        var testDescription: String { json }
    }

    /// Integers beyond Int64 are an error for `int64()` and the nearest Double for `double()`.
    static let numberCases: [NumberCase] = [
        NumberCase(json: "0", integer: 0, double: 0),
        NumberCase(json: "-0", integer: 0, double: -0.0),
        NumberCase(json: "-12", integer: -12, double: -12),
        NumberCase(json: "9223372036854775807", integer: .max, double: 0x1p63),
        NumberCase(json: "-9223372036854775808", integer: .min, double: -0x1p63),
        NumberCase(json: "9223372036854775808", integer: nil, double: 0x1p63),
        NumberCase(json: "-9223372036854775809", integer: nil, double: -0x1p63),
        NumberCase(json: "123456789012345678901234567890", integer: nil, double: 1.2345678901234568e29),
        NumberCase(json: "1.5", integer: nil, double: 1.5),
        NumberCase(json: "-2.5e-3", integer: nil, double: -0.0025),
        NumberCase(json: "1E3", integer: 1000, double: 1000),
        NumberCase(json: "5.0", integer: 5, double: 5),
        NumberCase(json: "2e+2", integer: 200, double: 200),
        NumberCase(json: "1e400", integer: nil, double: nil),
    ]

    @Test("reads integers and doubles from the number's text", arguments: numberCases)
    func numbers(testCase: NumberCase) throws {
        let json = "[\(testCase.json)]"
        let value = try #require(try tape(json, baseOffset: 50, recordPath: "n").root.array().first { _ in true })
        #expect(value.kind == .number)
        if let integer = testCase.integer {
            #expect(try value.int64() == integer)
        } else {
            let error = thrownError { try value.int64() }
            #expect(error?.byteOffset == 51)
            #expect(error?.path == "n[0]")
            #expect(error?.found == "the number '\(testCase.json)'")
        }
        if let double = testCase.double {
            let read = try value.double()
            #expect(read == double && read.sign == double.sign)
        } else {
            #expect(thrownError { try value.double() }?.byteOffset == 51)
        }
    }

    // MARK: Lookups

    @Test("tells absent from null, and required from optional")
    func absentAndNull() throws {
        let json = #"{"present":"x","nothing":null,"nested":{"n":null}}"#
        let object = try tape(json, baseOffset: 300, recordPath: "channels[2]").root.object()
        #expect(try object["absent"] == nil)
        #expect(try object["nothing"]?.isNull == true)
        #expect(try object.optional("nothing") == nil)
        #expect(try object.string("nothing") == nil)
        #expect(try object.string("absent") == nil)
        #expect(try object.string("present") == "x")
        #expect(try object.required("present").string() == "x")

        let absent = thrownError { try object.required("absent") }
        #expect(
            absent
                == PayloadError(
                    file: "test.json", byteOffset: 300, path: "channels[2].absent", expected: .valueForKey("absent"), found: "no such key"))
        let null = thrownError { try object.required("nested").object().required("n") }
        #expect(null?.path == "channels[2].nested.n")
        #expect(null?.found == "null")
        #expect(null?.byteOffset == 300, "an absent value is reported at the element's offset")
    }

    @Test("a key repeated with its value is read once; the members keep both")
    func agreeingDuplicateKeys() throws {
        let object = try tape(#"{"v":1,"w":{"a":[1,"x"]},"v":1,"w":{ "a" : [ 1 , "x" ] },"u":2,"u":3}"#).root.object()
        #expect(try object.int64("v") == 1)
        #expect(try object.required("w").object().required("a").array().count == 2)
        #expect(object.map(\.key) == ["v", "w", "v", "w", "u", "u"], "keys nobody looks up are not compared")
    }

    struct DuplicateCase: CustomTestStringConvertible, Sendable {
        let json: String
        let key: String
        /// Marks the second member: the error points at its key.
        let marker: String
        let path: String
        let found: String
        var testDescription: String { json }
    }

    static let duplicateCases: [DuplicateCase] = [
        DuplicateCase(
            json: #"{"id":"a","id":"b"}"#, key: "id", marker: #""id":"b""#, path: "doc.id",
            found: #""id" again with another value: first '"a"', then '"b"'"#),
        DuplicateCase(
            json: #"{"n":{"u":{"id":1,"x":0,"id":1.0}}}"#, key: "id", marker: #""id":1.0"#, path: "doc.n.u.id",
            found: #""id" again with another value: first '1', then '1.0'"#),
        DuplicateCase(
            json: #"{"a":[1,2],"b":0,"a":[1,3]}"#, key: "a", marker: #""a":[1,3]"#, path: "doc.a",
            found: #""a" again with another value: first '[1,2]', then '[1,3]'"#),
        DuplicateCase(
            json: #"{"\u0069d":null,"id":"x"}"#, key: "id", marker: #""id""#, path: "doc.id",
            found: #""id" again with another value: first 'null', then '"x"'"#),
        DuplicateCase(
            json: #"{"t":"\#(String(repeating: "y", count: 100))","t":"z"}"#, key: "t", marker: #""t":"z""#, path: "doc.t",
            found: #""t" again with another value: first '"\#(String(repeating: "y", count: 39))…', then '"z"'"#),
    ]

    @Test("repeats are found among many keys, whose signatures collide, and in objects read twice", arguments: [1, 31, 40, 200])
    func duplicatesAmongManyKeys(keys: Int) throws {
        let members = (0..<keys).map { #""k\#($0)":\#($0)"# } + [#""k\#(keys / 2)":-1"#]
        let json = "{" + members.joined(separator: ",") + "}"
        let object = try tape(json).root.object()
        for key in 0..<keys where key != keys / 2 { #expect(try object.int64("k\(key)") == Int64(key)) }
        for _ in 0..<2 {
            let error = thrownError { try object.int64("k\(keys / 2)") }
            #expect(error?.byteOffset == json.utf8.count - #""k\#(keys / 2)":-1}"#.utf8.count)
            #expect(error?.found == #""k\#(keys / 2)" again with another value: first '\#(keys / 2)', then '-1'"#)
        }
        #expect(try tape(#"{"k":1,"\u006b":1}"#).root.object().int64("k") == 1)
        #expect(thrownError { try tape(#"{"\u006b":1,"k":2}"#).root.object().int64("k") }?.byteOffset == 12)
    }

    @Test("an object of 200,000 keys alike in length and first byte parses in linear time", .timeLimit(.minutes(1)))
    func manySimilarKeys() throws {
        let count = 200_000
        let members = (0..<count).map { #""k\#(String(100_000 + $0))":\#($0)"# } + [#""k100007":7"#, #""k100009":0"#]
        let object = try tape("{" + members.joined(separator: ",") + "}").root.object()
        #expect(try object.int64("k100007") == 7)
        #expect(try object.int64("k299999") == Int64(count - 1))
        #expect(thrownError { try object.int64("k100009") }?.found == #""k100009" again with another value: first '9', then '0'"#)
    }

    @Test("a key repeated with another value is an error at the second member, naming both values", arguments: duplicateCases)
    func conflictingDuplicateKeys(testCase: DuplicateCase) throws {
        let json = testCase.json
        let object = try tape(json, baseOffset: 500, recordPath: "doc").root.object()
        let lookup: (JSONObject) throws -> Void = { object in
            switch testCase.path {
            case "doc.n.u.id": _ = try object.required("n").object().required("u").object().int64("id")
            default: _ = try object[testCase.key]
            }
        }
        let error = thrownError { try lookup(object) }
        #expect(
            error
                == PayloadError(
                    file: "test.json", byteOffset: try 500 + offset(of: testCase.marker, in: json), path: testCase.path,
                    expected: .sameValueForRepeatedKey(testCase.key), found: testCase.found))
    }

    @Test("a value of the wrong kind names its offset, record path, expectation and what was found")
    func wrongKind() throws {
        let json = #"{"a":[1,{"b":"x"}],"c":null,"d":true}"#
        let root = try tape(json, baseOffset: 1000, recordPath: "doc").root.object()
        let elements = Array(try root.required("a").array())
        let b = try elements[1].object().required("b")

        let notInteger = thrownError { try b.int64() }
        #expect(
            notInteger
                == PayloadError(
                    file: "test.json", byteOffset: try 1000 + offset(of: #""x""#, in: json), path: "doc.a[1].b",
                    expected: .kind(.integer), found: #"the string '"x"'"#))
        let notObject = thrownError { try elements[0].object() }
        #expect(notObject?.byteOffset == 1000 + 6)
        #expect(notObject?.path == "doc.a[0]")
        #expect(notObject?.found == "the number '1'")
        let nullString = thrownError { try root.required("c") }
        #expect(nullString?.found == "null")
        let boolAsString = thrownError { try root.string("d") }
        #expect(boolAsString?.path == "doc.d")
        #expect(boolAsString?.found == "true")
        #expect(thrownError { try root.bool("a") }?.found == "an array")
        #expect(thrownError { try root.required("a").object() }?.expected == .kind(.object))
    }

    @Test("record paths start without a dot when the tape has no path of its own")
    func rootPaths() throws {
        let root = try tape(#"{"a":[{"b":1}]}"#).root.object()
        let b = try #require(try root.required("a").array().first { _ in true }?.object().required("b"))
        #expect(b.recordPath == "a[0].b")
        #expect(thrownError { try b.string() }?.path == "a[0].b")
    }

    // MARK: Malformed input

    struct MalformedCase: CustomTestStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]
        /// Position of the problem within the element; the tape's base offset is added.
        let position: Int
        let expected: PayloadExpectation
        let path: String?

        init(_ name: String, _ json: String, at position: Int, expected: PayloadExpectation, path: String? = nil) {
            self.init(name, Array(json.utf8), at: position, expected: expected, path: path)
        }

        init(_ name: String, _ bytes: [UInt8], at position: Int, expected: PayloadExpectation, path: String? = nil) {
            self.name = name
            self.bytes = bytes
            self.position = position
            self.expected = expected
            self.path = path
        }

        var testDescription: String { name }
    }

    static let malformedCases: [MalformedCase] = [
        MalformedCase("unterminated string", #"{"a":"abc"#, at: 9, expected: .stringContent(.closingQuote(openedAt: 1005)), path: "element.a"),
        MalformedCase("unterminated key", #"{"ab"#, at: 4, expected: .stringContent(.closingQuote(openedAt: 1001)), path: "element"),
        MalformedCase("unterminated object", #"{"a":{}"#, at: 7, expected: .comma(orClosing: .object), path: "element.a"),
        MalformedCase("unterminated array", "[1,2", at: 4, expected: .comma(orClosing: .array), path: "element[1]"),
        MalformedCase("empty", "", at: 0, expected: .value(orClosing: nil), path: "element"),
        MalformedCase("only whitespace", " \n", at: 2, expected: .value(orClosing: nil), path: "element"),
        MalformedCase("bad literal", #"{"a":tru}"#, at: 5, expected: .literal("true"), path: "element.a"),
        MalformedCase("truncated literal", "[nul]", at: 1, expected: .literal("null"), path: "element[0]"),
        MalformedCase("capitalised literal", "[True]", at: 1, expected: .value(orClosing: nil), path: "element[0]"),
        MalformedCase("NaN", "[NaN]", at: 1, expected: .value(orClosing: nil)),
        MalformedCase("bad escape", #"{"a":"x\qy"}"#, at: 7, expected: .stringContent(.escape), path: "element.a"),
        MalformedCase("bad hex digit", #"["\u12G4"]"#, at: 2, expected: .stringContent(.escape), path: "element[0]"),
        MalformedCase("short unicode escape", #"["\u12"]"#, at: 2, expected: .stringContent(.escape)),
        MalformedCase("lone high surrogate", #"["\uD800"]"#, at: 2, expected: .stringContent(.lowSurrogate)),
        MalformedCase("high surrogate before a non-surrogate", #"["ok\uD800\u0041"]"#, at: 4, expected: .stringContent(.lowSurrogate)),
        MalformedCase("lone low surrogate", #"["\uDC00"]"#, at: 2, expected: .stringContent(.highSurrogate)),
        MalformedCase("raw control character", "[\"a\tb\"]", at: 3, expected: .stringContent(.character)),
        MalformedCase("invalid UTF-8 byte", [0x5B, 0x22, 0xFF, 0x22, 0x5D], at: 2, expected: .validUTF8(csvText: false)),
        MalformedCase("overlong UTF-8", [0x5B, 0x22, 0x61, 0xC0, 0xAF, 0x22, 0x5D], at: 3, expected: .validUTF8(csvText: false)),
        MalformedCase("UTF-8 encoded surrogate", [0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D], at: 2, expected: .validUTF8(csvText: false)),
        MalformedCase("truncated UTF-8 sequence", [0x5B, 0x22, 0xE2, 0x82, 0x22, 0x5D], at: 2, expected: .validUTF8(csvText: false)),
        MalformedCase("UTF-8 above U+10FFFF", [0x5B, 0x22, 0xF4, 0x90, 0x80, 0x80, 0x22, 0x5D], at: 2, expected: .validUTF8(csvText: false)),
        MalformedCase("non-ASCII outside a string", [0x5B, 0xC3, 0xA9, 0x5D], at: 1, expected: .value(orClosing: nil)),
        MalformedCase("garbage after an object", #"{"a":1}x"#, at: 7, expected: .nothingAfterValue, path: "element"),
        MalformedCase("second value", #"{"a":1} {}"#, at: 8, expected: .nothingAfterValue),
        MalformedCase("garbage after a literal", "truex", at: 4, expected: .nothingAfterValue),
        MalformedCase("trailing comma in an object", #"{"a":1,}"#, at: 7, expected: .key(orClosingBrace: false)),
        MalformedCase("trailing comma in an array", "[1,]", at: 3, expected: .value(orClosing: nil), path: "element[1]"),
        MalformedCase("missing colon", #"{"a" 1}"#, at: 5, expected: .colon(afterMemberName: false)),
        MalformedCase("missing comma between members", #"{"a":1 "b":2}"#, at: 7, expected: .comma(orClosing: .object), path: "element.a"),
        MalformedCase("missing comma between elements", "[1 2]", at: 3, expected: .comma(orClosing: .array), path: "element[0]"),
        MalformedCase("key that is not a string", "{1:2}", at: 1, expected: .key(orClosingBrace: true), path: "element"),
        MalformedCase("single-quoted key", "{'a':1}", at: 1, expected: .key(orClosingBrace: true)),
        MalformedCase("mismatched closer", "[1}", at: 2, expected: .comma(orClosing: .array)),
        MalformedCase("closer without opener", "]", at: 0, expected: .value(orClosing: nil)),
        MalformedCase("leading zero", "[01]", at: 2, expected: .comma(orClosing: .array)),
        MalformedCase("minus without digits", "[-]", at: 2, expected: .digit(after: .minus)),
        MalformedCase("plus sign", "[+1]", at: 1, expected: .value(orClosing: nil)),
        MalformedCase("fraction without integer part", "[.5]", at: 1, expected: .value(orClosing: nil)),
        MalformedCase("dot without digits", "[1.]", at: 3, expected: .digit(after: .point)),
        MalformedCase("dot before exponent", "[1.e5]", at: 3, expected: .digit(after: .point)),
        MalformedCase("exponent without digits", "[1e]", at: 3, expected: .digit(after: .exponent)),
        MalformedCase("signed exponent without digits", "[1e+]", at: 4, expected: .digit(after: .exponent)),
        MalformedCase("number cut at the end", "-", at: 1, expected: .digit(after: .minus)),
        MalformedCase("nesting deeper than 512", String(repeating: "[", count: 513), at: 512, expected: .limit(.nesting, 512)),
    ]

    @Test("malformed JSON is a PayloadError at the exact byte", arguments: malformedCases)
    func malformed(testCase: MalformedCase) throws {
        let error = try #require(parseError(testCase.bytes))
        #expect(error.byteOffset == 1000 + testCase.position, "\(error)")
        #expect(error.file == "test.json")
        if let path = testCase.path { #expect(error.path == path, "\(error)") }
        #expect(error.expected == testCase.expected, "\(error)")
        #expect(!error.found.isEmpty)
        if testCase.position == testCase.bytes.count { #expect(error.found == "end of element") }
    }

    @Test("nesting up to 512 deep is accepted")
    func deepestNesting() throws {
        let json = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        var value = try tape(json).root
        for _ in 0..<511 { value = try #require(try value.array().first { _ in true }) }
        #expect(try value.array().isEmpty)
    }

    /// Random damage to a realistic document: every outcome is a tape or a PayloadError inside the element.
    @Test("damaged documents never crash and report offsets inside the element")
    func damagedDocuments() throws {
        let document = Array(
            #"""
            {"channel":{"cid":"messaging:general","name":"Ada \"A\" Lovelace","created_by":{"id":"u1","online":true}},
             "messages":[{"id":"m1","text":"hi\n\u00e9 \ud83d\ude00 café","score":-1.5e3,"user":{"id":"u2"},
               "attachments":[{"file_size":10},{}],"latest_reactions":null}],"watcher_count":5}
            """#.utf8)
        #expect(parseError(document) == nil)
        let interesting: [UInt8] = Array(#""\{}[],:u0-e. "#.utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xED, 0xF4, 0xFF]
        var random = SeededRandom(seed: 11)
        var failures = 0
        for _ in 0..<3000 {
            var damaged = document
            switch random.nextInt(below: 3) {
            case 0: damaged[random.nextInt(below: damaged.count)] = random.pick(interesting)
            case 1: damaged.remove(at: random.nextInt(below: damaged.count))
            default: damaged.removeLast(random.nextInt(in: 1...damaged.count))
            }
            guard let error = parseError(damaged) else {
                // Whatever parsed must be readable throughout.
                _ = try? Tree(JSONTape(bytes: damaged).root)
                continue
            }
            failures += 1
            let offset = try #require(error.byteOffset)
            #expect(offset >= 1000 && offset <= 1000 + damaged.count, "\(error)")
            #expect(error.path?.hasPrefix("element") == true)
        }
        #expect(failures > 2000)
    }

    @Test("Data and byte arrays give the same tape")
    func dataInput() throws {
        let json = #"{"a":["x",2]}"#
        let fromData = try JSONTape(bytes: Data(json.utf8), baseOffset: 7)
        #expect(try Tree(fromData.root) == Tree(tape(json).root))
        #expect(fromData.root.byteOffset == 7)
    }
}

@Suite("A JSON string written into a record")
struct JSONTextWriteTests {
    @Test(
        "escaped or not, the builder holds the string as decoded, and the values around it stay in place",
        arguments: [
            (#""plain""#, "plain"), (#""tab\there""#, "tab\there"), (#""quote \" and \\ slash \/""#, "quote \" and \\ slash /"),
            (#""\u00e9t\u00E9 \ud83d\ude00""#, "été 😀"), (#""""#, ""), (#""\n""#, "\n"),
            (#""\"starts and ends with an escape\"""#, "\"starts and ends with an escape\""),
            (
                #""a plain run of over thirty-two bytes, then\\an escape, and another at the end\/""#,
                "a plain run of over thirty-two bytes, then\\an escape, and another at the end/"
            ),
        ])
    func escapes(json: String, decoded: String) throws {
        let schema = ProductsScenario().schema
        let builder = RecordBuilder(schema: schema, interner: KeyInterner(entityCount: schema.entities.count))
        let tape = try JSONTape(bytes: Data("[\(json), 7]".utf8))
        builder.beginUnit()
        builder.begin(entity: 0)
        builder.key(text: UnsafeRawBufferPointer(start: nil, count: 0))
        try tape.writeText(at: 1, to: builder)
        try tape.write(valueAt: 2, to: builder, as: .integer)
        for _ in 2..<ProductsPayloadReader.product.attributes.count { builder.absent() }
        builder.finish()
        let occurrence = builder.cut(first: 1, index: 0).occurrences[0]
        #expect(occurrence.attributes[0].storeValue == .text(decoded))
        #expect(occurrence.attributes[1].storeValue == .integer(7))
    }
}
