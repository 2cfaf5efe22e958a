import CHotPath
import Foundation
import Testing

@testable import ImportBenchCore
@testable import ImportBenchPayload

/// The C prefix parse (the hot path of a streamed array) against the Swift parser (the reference,
/// which gives every error): the same tokens for what both accept, and nothing accepted that the
/// reference refuses.
@Suite("JSON prefix parse")
struct JSONPrefixParseTests {
    static let texts: [String] = [
        #"{}"#, #"[]"#, #"{"a":1}"#, #"[1,2,3]"#, #"{"a":{"b":[true,false,null,{"c":"d"}]},"e":[]}"#,
        // A streamed element starts at its opening bracket: whitespace only inside and after.
        #"{ "a" : [ 1 , -2.5e+3 , 0 , -0 , 1E2 ] , "b" : "x" } "#, "{\n\t\"a\":\r\n1}",
        #"{"s":"plain","e":"a\"b\\c\/d\b\f\n\r\t","u":"\u00e9\u4e2d\ud83d\ude00"}"#,
        "{\"utf8\":\"caf\u{E9} \u{4E2D} \u{1F600}\"}",
        #"{"k":"v","k":"v"}"#, #"{"k":"v","k":"w"}"#, #"{"k\u0041":1,"kA":2}"#, #"{"":1,"":1}"#,
        "{" + (0..<30).map { "\"key\($0)\":\($0)" }.joined(separator: ",") + "}",
        String(repeating: "[", count: 512) + String(repeating: "]", count: 512),
        String(repeating: "[", count: 513) + String(repeating: "]", count: 513),
        // Refused: grammar, numbers, literals, escapes, control bytes, trailing text.
        #"{"a":}"#, #"{"a" 1}"#, #"{a:1}"#, #"{"a":1,}"#, #"[1,]"#, #"[1 2]"#, #"{"a":1}}"#, #"[01]"#, #"[1.]"#,
        #"[1e]"#, #"[-]"#, #"[.5]"#, #"[+1]"#, #"[tru]"#, #"[nul]"#, #"[falsey]"#, #"["\x"]"#, #"["\u12G4"]"#,
        #"["\ud800"]"#, #"["\udc00"]"#, #"["\ud800\u0041"]"#, "[\"a\u{01}b\"]", #"{"a":1} x"#, #"[1]]"#,
    ]

    /// The C parse of `bytes` as a streamed element: its tokens and length, or how it declined.
    static func prefixParse(_ bytes: [UInt8]) -> (tokens: [JSONToken], length: Int)? {
        // The tape's tokens live in the workspace: it must outlive the copy taken of them.
        let workspace = JSONTapeWorkspace()
        return withExtendedLifetime(workspace) {
            bytes.withUnsafeBufferPointer { buffer in
                let parse = JSONTape.parsingPrefix(
                    of: buffer, baseOffset: 0, file: "t.json", rootPrefix: "", workspace: workspace)
                guard case .parsed(let tape, let length) = parse else { return nil }
                return (Array(tape.tokens), length)
            }
        }
    }

    /// The property both tests check on one text.
    static func expectAgreement(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let reference = try? JSONTape(bytes: bytes)
        let fast = prefixParse(bytes)
        let restIsWhitespace =
            fast.map { parsed in
                bytes[parsed.length...].allSatisfy { [0x20, 0x0A, 0x0D, 0x09].contains($0) }
            } ?? false
        if let reference {
            #expect(restIsWhitespace, "the reference accepts \(String(decoding: bytes, as: UTF8.self))", sourceLocation: sourceLocation)
            #expect(fast?.tokens == Array(reference.tokens), sourceLocation: sourceLocation)
        } else {
            #expect(!restIsWhitespace, "the reference refuses \(String(decoding: bytes, as: UTF8.self))", sourceLocation: sourceLocation)
        }
    }

    @Test("token for token what the Swift parser writes; refused where it refuses", arguments: texts)
    func agreesWithTheReference(text: String) {
        Self.expectAgreement(Array(text.utf8))
    }

    @Test("the token layout is the one the C parse writes")
    func tokenLayout() {
        #expect(JSONToken.matchesCLayout)
    }

    @Test("one byte changed anywhere in a chat channel: the two parsers still agree")
    func mutatedBytesAgree() throws {
        try withGeneratedChatPayload(scale: 0.01, seed: 4) { path, _ in
            let reader = try JSONArrayElementReader(path: path, arrayPath: ["channels"])
            guard let first = try reader.next() else {
                throw PayloadError(
                    file: path, byteOffset: 0, path: nil, expected: .element(of: .array(["channels"]), orClosing: false), found: "none")
            }
            let element = Array(first.text.utf8.prefix(3_000))
            // Cut at the last complete message, closing what is open, so the unmutated text is valid.
            var base = Array(element)
            if let cut = String(decoding: base, as: UTF8.self).range(of: "},{\"id\":\"msg", options: .backwards) {
                base = Array(String(decoding: base, as: UTF8.self)[..<cut.lowerBound].utf8) + Array("}]}".utf8)
            }
            #expect((try? JSONTape(bytes: base)) != nil)
            Self.expectAgreement(base)
            let replacements: [UInt8] = Array(#"{}[]:,"\ 0123456789-+.eEtrufalsn"#.utf8) + [0x01, 0x7F, 0x80, 0xC3, 0xE2, 0xF0, 0xFF]
            var random = SeededRandom(seed: 11)
            for _ in 0..<3_000 {
                var mutated = base
                let position = random.nextInt(below: mutated.count)
                mutated[position] = replacements[random.nextInt(below: replacements.count)]
                Self.expectAgreement(mutated)
            }
        }
    }
}

@Suite("A workspace's lent tape")
struct LentTapeTests {
    /// Element bytes that stay where they are while the tapes lent them live, as a read buffer's do.
    final class Buffers {
        private var buffers: [UnsafeMutableBufferPointer<UInt8>] = []

        func lend(_ text: String) -> UnsafeBufferPointer<UInt8> {
            let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.utf8.count)
            _ = buffer.initialize(from: text.utf8)
            buffers.append(buffer)
            return UnsafeBufferPointer(buffer)
        }

        deinit { for buffer in buffers { buffer.deallocate() } }
    }

    static func parse(_ text: String, at offset: Int, in workspace: JSONTapeWorkspace, from buffers: Buffers) throws -> JSONTape {
        let parse = JSONTape.parsingPrefix(
            of: buffers.lend(text), baseOffset: offset, file: "f.json", rootPrefix: "a", rootIndex: offset, workspace: workspace)
        guard case .parsed(let tape, _) = parse else {
            throw PayloadError(file: "f.json", byteOffset: offset, path: nil, expected: .value(orClosing: nil), found: "none")
        }
        return tape
    }

    @Test("a tape still held is never pointed at the next element: the next parse gets a tape of its own")
    func heldTapeKeepsItsElement() throws {
        let workspace = JSONTapeWorkspace()
        let buffers = Buffers()
        let first = try Self.parse(#"{"a": 1}"#, at: 10, in: workspace, from: buffers)
        let second = try Self.parse(#"{"b": "two", "c": 3}"#, at: 20, in: workspace, from: buffers)
        #expect(first !== second)
        #expect(first.baseOffset == 10 && first.recordPath == "a[10]")
        #expect(second.baseOffset == 20 && second.recordPath == "a[20]")
        #expect(try second.root.object().string("b") == "two")
    }

    @Test("a tape let go is pointed at the next element, with its offset, path and a fresh lookup hint")
    func releasedTapeIsLentAgain() throws {
        let workspace = JSONTapeWorkspace()
        let buffers = Buffers()
        let firstIdentity = try ObjectIdentifier(Self.parse(#"{"x": 1, "y": 2}"#, at: 5, in: workspace, from: buffers))
        let second = try Self.parse(#"{"y": "b", "x": "a"}"#, at: 50, in: workspace, from: buffers)
        #expect(ObjectIdentifier(second) == firstIdentity)
        #expect(second.baseOffset == 50 && second.recordPath == "a[50]")
        #expect(try second.root.object().string("x") == "a")
        #expect(try second.root.object().string("y") == "b")
    }

    @Test("a lent tape names its element by the path it was given, byte for byte, even after a canonically equal one")
    func lentTapeTakesEveryPrefixByteForByte() throws {
        let workspace = JSONTapeWorkspace()
        let buffers = Buffers()
        let composed = #"events["\#u{E9}"]"#
        let decomposed = #"events["e\#u{301}"]"#
        #expect(composed == decomposed && !composed.utf8.elementsEqual(decomposed.utf8))
        var identities: [ObjectIdentifier] = []
        for (offset, prefix) in [(1, composed), (9, decomposed)] {
            let parse = JSONTape.parsingPrefix(
                of: buffers.lend(#"{"a": 1}"#), baseOffset: offset, file: "f.json", rootPrefix: prefix, workspace: workspace)
            guard case .parsed(let tape, _) = parse else {
                Issue.record("no parse")
                return
            }
            identities.append(ObjectIdentifier(tape))
            #expect(tape.recordPath.utf8.elementsEqual(prefix.utf8))
        }
        #expect(identities[0] == identities[1])
    }
}
