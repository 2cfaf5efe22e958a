import Foundation
import Testing

@testable import ImportBenchCore
@testable import ImportBenchPayload

/// Runs `body` with a fresh `TemporaryDirectory`, kept alive until `body` returns: ARC may otherwise
/// release it, and delete its files, right after its last use.
func withTemporaryPayloadDirectory<T>(_ body: (TemporaryDirectory) throws -> T) throws -> T {
    let directory = try TemporaryDirectory()
    return try withExtendedLifetime(directory) { try body(directory) }
}

@Suite("JSON array element reader")
struct JSONArrayElementReaderTests {
    struct SplitElement: Equatable, CustomStringConvertible {
        let index: Int
        let byteOffset: Int
        let text: String
        var description: String { "#\(index)@\(byteOffset): \(text)" }
    }

    @Test("a leading UTF-8 byte order mark is skipped: the same elements, their offsets three bytes on", arguments: [1, 2, 3, 4, 1 << 20])
    func byteOrderMark(chunkSize: Int) throws {
        let json = "{\"channels\":[{\"id\":1},{\"id\":2}]}"
        let plain = try split(json, arrayPath: ["channels"], chunkSize: chunkSize)
        let marked = try split("\u{FEFF}" + json, arrayPath: ["channels"], chunkSize: chunkSize)
        #expect(marked.map(\.text) == plain.map(\.text))
        #expect(marked.map(\.byteOffset) == plain.map { $0.byteOffset + 3 })
    }

    /// Writes `json` to a file and returns every element the reader yields.
    func split(_ json: String, arrayPath: [String], chunkSize: Int) throws -> [SplitElement] {
        try withTemporaryPayloadDirectory { directory in
            let file = directory.path("payload.json")
            try Data(json.utf8).write(to: URL(fileURLWithPath: file))
            let reader = try JSONArrayElementReader(path: file, arrayPath: arrayPath, chunkSize: chunkSize)
            var elements: [SplitElement] = []
            while let element = try reader.next() {
                elements.append(
                    SplitElement(
                        index: element.index, byteOffset: element.byteOffset,
                        text: element.text))
            }
            // The end is sticky: asking again neither rescans nor throws.
            #expect(try reader.next() == nil)
            return elements
        }
    }

    /// The error thrown while reading every element of `json`.
    func splitError(_ json: String, arrayPath: [String] = ["channels"], chunkSize: Int) throws -> PayloadError? {
        try withTemporaryPayloadDirectory { directory in
            let file = directory.path("payload.json")
            try Data(json.utf8).write(to: URL(fileURLWithPath: file))
            let reader = try JSONArrayElementReader(path: file, arrayPath: arrayPath, chunkSize: chunkSize)
            do {
                while try reader.next() != nil {}
                return nil
            } catch let error as PayloadError {
                // Errors are sticky: the reader does not resume from a broken position.
                #expect(throws: error) { _ = try reader.next() }
                return error
            }
        }
    }

    /// Expected elements, located by their text in the document, searching after `anchor` and after
    /// the previous element (so earlier look-alikes, such as a `null` in another key, are not matched).
    func expectedElements(_ texts: [String], in json: String, after anchor: String = "[") -> [SplitElement] {
        let bytes = Array(json.utf8)
        func find(_ text: String, from start: Int) -> Int? {
            let needle = Array(text.utf8)
            guard bytes.count >= needle.count + start else { return nil }
            return (start...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
        }
        var searchFrom = find(anchor, from: 0) ?? 0
        return texts.enumerated().map { index, text in
            let offset = find(text, from: searchFrom) ?? -1
            searchFrom = offset + text.utf8.count
            return SplitElement(index: index, byteOffset: offset, text: text)
        }
    }

    static let chunkSizes = [1, 7, 64, 1 << 20]

    @Test("splits elements whose strings hold brackets, braces and escaped quotes", arguments: chunkSizes)
    func splitsTrickyStrings(chunkSize: Int) throws {
        let texts = [
            #"{"a":"]}\"{[","b":"\\"}"#,
            #"[1,2,{"b":[]},"]"]"#,
            #""str\"ing \\\" ]""#,
            "-42.5e3",
            "null",
            "{}",
            #"{"é🎉":"ü","nested":{"deep":[[[{"x":"}}}"}]]]}}"#,
        ]
        let json = """
            {"before": {"x": "a]}\\"[{", "y": [1, {"z": null}]}, "ünïcode": "🎉",
             "n": -12.5e3, "t": true, "s": "he said \\"[\\" \\\\", "channelsX": [9, 9],
             "channels" :\t[ \(texts[0]) , \(texts[1]),\(texts[2])
              ,\(texts[3]), \(texts[4]),\n\(texts[5]), \(texts[6]) ],
             "after": {"k": [ "}" ], "channels": "not this one"}, "last": false }\n
            """
        let elements = try split(json, arrayPath: ["channels"], chunkSize: chunkSize)
        #expect(elements == expectedElements(texts, in: json, after: #""channels" :"#))
        for element in elements {
            #expect(throws: Never.self) {
                try JSONSerialization.jsonObject(with: Data(element.text.utf8), options: .fragmentsAllowed)
            }
        }
    }

    @Test("reads a top-level array with an empty key path", arguments: chunkSizes)
    func topLevelArray(chunkSize: Int) throws {
        let json = "  [ {\"a\":1}, 2 ,\"x,]\" , [true] ]  \n"
        let elements = try split(json, arrayPath: [], chunkSize: chunkSize)
        #expect(elements == expectedElements([#"{"a":1}"#, "2", #""x,]""#, "[true]"], in: json))
    }

    @Test("follows a nested key path, matching only direct members", arguments: [3, 1 << 20])
    func nestedKeyPath(chunkSize: Int) throws {
        let json = #"{"type":"x","data":{"featuresX":"no","meta":{"features":[9]},"features":[{"id":1},{"id":2}],"z":[]},"end":0}"#
        let elements = try split(json, arrayPath: ["data", "features"], chunkSize: chunkSize)
        #expect(elements == expectedElements([#"{"id":1}"#, #"{"id":2}"#], in: json, after: #""features":["#))
    }

    @Test("matches keys written with escapes")
    func escapedKey() throws {
        let json = #"{"chan\u006eels":[1,2]}"#
        let elements = try split(json, arrayPath: ["channels"], chunkSize: 5)
        #expect(elements.map(\.text) == ["1", "2"])
    }

    @Test("yields nothing for an empty array", arguments: [1, 1 << 20])
    func emptyArray(chunkSize: Int) throws {
        #expect(try split(#"{"channels":[ ],"more":1}"#, arrayPath: ["channels"], chunkSize: chunkSize).isEmpty)
        #expect(try split("[]", arrayPath: [], chunkSize: chunkSize).isEmpty)
    }

    @Test("keeps element bytes intact across many chunk refills")
    func manyElements() throws {
        let texts = (0..<500).map { #"{"id":"item-\#($0)","text":"\#(String(repeating: "x\\\"", count: $0 % 37))"}"# }
        let json = #"{"channels":["# + texts.joined(separator: ",") + "]}"
        let elements = try split(json, arrayPath: ["channels"], chunkSize: 7)
        #expect(elements.map(\.text) == texts)
        #expect(elements.map(\.index) == Array(0..<500))
    }

    struct MalformedCase: CustomTestStringConvertible, Sendable {
        let name: String
        let json: String
        let byteOffset: Int
        let expected: PayloadExpectation
        let found: String
        var arrayPath = ["channels"]
        var testDescription: String { name }
    }

    static let malformedCases: [MalformedCase] = [
        MalformedCase(name: "empty file", json: "", byteOffset: 0, expected: .openingBrace(of: []), found: "an empty file"),
        MalformedCase(
            name: "file of whitespace", json: " \n", byteOffset: 2, expected: .openingBrace(of: []), found: "an empty file (only whitespace)"),
        MalformedCase(
            name: "truncated inside a string", json: #"{"channels":[{"a":"x"#, byteOffset: 20, expected: .cutShort(nil, startingAt: 13),
            found: "end of file"),
        MalformedCase(
            name: "truncated after an element", json: #"{"channels":[{"a":1}"#, byteOffset: 20,
            expected: .separator(after: .index(0), of: .array(["channels"])), found: "end of file"),
        MalformedCase(
            name: "truncated after the array", json: #"{"channels":[{"a":1}]"#, byteOffset: 21, expected: .comma(orClosing: .object, of: []),
            found: "end of file"),
        MalformedCase(
            name: "truncated in a later key", json: #"{"channels":[],"b":[1,"#, byteOffset: 22, expected: .cutShort(.array, startingAt: 19),
            found: "end of file"),
        MalformedCase(
            name: "truncated after an escape", json: #"{"channels":["a\"#, byteOffset: 16, expected: .cutShort(nil, startingAt: 13),
            found: "end of file"),
        MalformedCase(
            name: "missing array", json: #"{"other":[1]}"#, byteOffset: 12, expected: .member(named: ["channels"], in: []), found: "end of object"),
        MalformedCase(name: "empty object", json: "{}", byteOffset: 1, expected: .member(named: ["channels"], in: []), found: "end of object"),
        MalformedCase(name: "not an object", json: "[1]", byteOffset: 0, expected: .openingBrace(of: []), found: "'['"),
        MalformedCase(
            name: "not an array", json: #"{"channels":{"a":1}}"#, byteOffset: 12, expected: .openingBracket(of: .array(["channels"])), found: "'{'"),
        MalformedCase(
            name: "top level is not an array", json: #"{"a":1}"#, byteOffset: 0, expected: .openingBracket(of: nil), found: "'{'", arrayPath: []),
        MalformedCase(
            name: "garbage between elements", json: #"{"channels":[{"a":1} x]}"#, byteOffset: 21,
            expected: .separator(after: .index(0), of: .array(["channels"])), found: "'x'"),
        MalformedCase(
            name: "garbage after the document", json: #"{"channels":[]} x"#, byteOffset: 16, expected: .endOfFileAfterDocument, found: "'x'"),
        MalformedCase(
            name: "mismatched bracket", json: #"{"channels":[{"a":[1}]}"#, byteOffset: 20, expected: .value(orClosing: .array), found: "'}'"),
        MalformedCase(
            name: "bad literal in a skipped value", json: #"{"x": nul, "channels":[]}"#, byteOffset: 6, expected: .value(orClosing: nil),
            found: "'nul'"),
        MalformedCase(name: "trailing comma", json: #"{"channels":[1,]}"#, byteOffset: 15, expected: .value(orClosing: nil), found: "']'"),
        MalformedCase(name: "missing colon", json: #"{"channels" []}"#, byteOffset: 12, expected: .colon(afterMemberName: false), found: "'['"),
        MalformedCase(name: "binary garbage", json: "\u{01}\u{02}", byteOffset: 0, expected: .openingBrace(of: []), found: "byte 0x1"),
        MalformedCase(
            name: "a second array of the same key", json: #"{"channels":[1],"channels":[2]}"#, byteOffset: 16,
            expected: .oneMember("channels", in: []), found: #"a second "channels""#),
        MalformedCase(
            name: "a second array of the same key, nested", json: #"{"data":{"features":[],"features":[]}}"#, byteOffset: 23,
            expected: .oneMember("features", in: ["data"]), found: #"a second "features""#, arrayPath: ["data", "features"]),
    ]

    @Test("throws PayloadError with the byte offset of malformed input", arguments: malformedCases, [1, 7, 1 << 20])
    func malformed(testCase: MalformedCase, chunkSize: Int) throws {
        let error = try #require(try splitError(testCase.json, arrayPath: testCase.arrayPath, chunkSize: chunkSize))
        #expect(error.byteOffset == testCase.byteOffset)
        #expect(error.found == testCase.found)
        #expect(error.file.hasSuffix("payload.json"))
        #expect(error.expected == testCase.expected)
    }

    @Test(
        "a closer that does not match names the closer its opener needs",
        arguments: [
            (#"{"channels":[{"a":[1}]}"#, 20, PayloadExpectation.value(orClosing: .array), "'}'"),
            (#"{"channels":[{"a":1]]}"#, 19, .value(orClosing: .object), "']'"),
            (#"{"channels":[[{}}]}"#, 16, .value(orClosing: .array), "'}'"),
        ])
    func mismatchedCloser(json: String, offset: Int, expected: PayloadExpectation, found: String) throws {
        let error = try #require(try splitError(json, chunkSize: 3))
        #expect(error.byteOffset == offset)
        #expect(error.expected == expected)
        #expect(error.found == found)
        #expect(error.path == "channels[0]")
    }

    /// Read whole, the splitter steps over white space eight bytes at a time: a closer past long runs
    /// of it is still found where it is, whichever of the eight bytes of a step it falls on.
    @Test(
        "a closer that does not match is found past runs of white space, read whole or in small chunks",
        arguments: [3, 1 << 20], 0..<8)
    func mismatchedCloserAfterWhiteSpace(chunkSize: Int, shift: Int) throws {
        let spaces = String(repeating: " ", count: 20)
        let last = String(repeating: " ", count: 20 + shift)
        let before = "{\"channels\":[{\"a\":\(spaces)\"x\",\(spaces)\"b\":\(spaces)[1,\(spaces)2\(last)"
        let error = try #require(try splitError(before + "}]}", chunkSize: chunkSize))
        #expect(error.byteOffset == before.utf8.count)
        #expect(error.expected == .value(orClosing: .array))
        #expect(error.found == "'}'")
    }

    @Test("an element's misspelt literal is handed to its decoder, which may skip it; elsewhere it is an error")
    func elementLiterals() throws {
        let elements = try split("[tru, nul ,1]", arrayPath: [], chunkSize: 2)
        #expect(elements.map(\.text) == ["tru", "nul", "1"])
        #expect(try splitError(#"{"x":tru,"channels":[]}"#, chunkSize: 2)?.found == "'tru'")
    }

    @Test(
        "an element seam inside a string is found: the sign of a quote out of place",
        arguments: [
            (#"{"a":"x"y"},{"b":"z"}"#, true),
            ("{\"a\":\"x\"y\"\n  },\n  {\"b\":\"z\"}", true),
            (#"{"a":"[1], [2]"}"#, true),
            (#"{"a":[{"b":1},{"c":2}]}"#, false),
            (#"{"a":"},{ and \"},{\" escaped"}"#, true),
            (#"{"a":"} , x"}"#, false),
            (#"{"a":"\"},{"}"#, true),
            (#"{"a":"\\"}"#, false),
        ])
    func seams(text: String, hasSeam: Bool) {
        let element = JSONArrayElement(index: 0, byteOffset: 0, bytes: Data(text.utf8))
        #expect(element.hasElementSeamInsideString == hasSeam)
    }

    @Test("names the element being scanned when it is truncated")
    func truncatedElementPath() throws {
        let error = try #require(try splitError(#"{"channels":[{"a":1},{"b":[2"#, chunkSize: 4))
        #expect(error.path == "channels[1]")
        #expect(error.byteOffset == 28)
    }

    @Test("throws PayloadError for a missing file")
    func missingFile() throws {
        #expect(throws: PayloadError.self) {
            _ = try JSONArrayElementReader(path: "/nonexistent/payload.json", arrayPath: ["channels"])
        }
    }
}
