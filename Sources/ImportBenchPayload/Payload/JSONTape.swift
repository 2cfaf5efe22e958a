import CHotPath
import Foundation

/// One JSON value (an array element handed over by `JSONArrayElementReader`) parsed in a single pass
/// into a flat list of tokens over its bytes. Containers know their child count and where they end,
/// so lookups skip whole subtrees, and strings and numbers stay byte spans until a reader asks for
/// them: an element's unread fields cost one scan and no allocation.
///
/// Parsing validates the whole value (grammar, escapes including surrogate pairs, UTF-8, nesting at
/// most `maximumDepth`, nothing but whitespace after it), so reading a field can only fail on its
/// type or on its key being repeated with another value. Every failure is a `PayloadError` with the file, the absolute byte offset (`baseOffset` plus
/// the position in `bytes`) and the record path below `recordPath`.
///
/// Not Sendable: lookups update a hint (see `lookupHint`), so a tape belongs to one thread.
package final class JSONTape {
    /// Deeper nesting is refused; the parser keeps its own stack, so this bounds memory, not recursion.
    package static let maximumDepth = 512

    // The fields below change only when a workspace points its lent tape at the next element
    // (`parsingPrefix`), which it does only while nothing else holds the tape: unchecked, as a
    // class's stored `var` would otherwise cost a runtime exclusivity check on every read.
    @exclusivity(unchecked) package private(set) var file: String
    /// Offset of the value's first byte in the file.
    @exclusivity(unchecked) package private(set) var baseOffset: Int
    /// Path of the value itself (`channels[3]`); member paths extend it. Built only when asked
    /// (error messages), not for every element.
    package var recordPath: String { RecordPathRoot(prefix: pathPrefix, index: pathIndex).text }
    /// The record path's parts, kept apart: a lent tape's next element changes only the index.
    @exclusivity(unchecked) private var pathPrefix: String
    @exclusivity(unchecked) private var pathIndex: Int?
    /// The value's bytes and its tokens, in buffers the tape owns: lookups then read them without
    /// bounds checks or reference counting, which the parser's invariants make safe.
    @exclusivity(unchecked) private(set) var bytes: UnsafeBufferPointer<UInt8>
    /// False when the bytes are lent (`parsingPrefix`): the lender frees them.
    private let ownsBytes: Bool
    @exclusivity(unchecked) private(set) var tokens: UnsafeBufferPointer<JSONToken>
    /// False when the tokens live in a `JSONTapeWorkspace`, reused for the next element.
    private let ownsTokens: Bool
    /// Where the last lookup in an object without repeated keys found its member. Readers ask for
    /// members mostly in document order, so the next search in that object starts after it and an
    /// in-order read of an object costs one key comparison per member. Unchecked: a class's stored
    /// `var` would cost a runtime exclusivity check per lookup, and only the lookup below touches it
    /// (a pointer to it instead cost an allocation and a free per tape, that is per element).
    @exclusivity(unchecked) private var lookupHint = LookupHint()

    private struct LookupHint {
        var object = -1
        /// The key token of the member after the one found, and how many members follow it.
        var nextMember = 0
        var remaining = 0
    }

    package convenience init(
        bytes: Data, baseOffset: Int = 0, file: String = "", recordPath: String = "", limits: PayloadLimits = .default
    ) throws(PayloadError) {
        let owned = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = bytes.copyBytes(to: owned)
        try self.init(ownedBytes: owned, baseOffset: baseOffset, file: file, recordPath: recordPath, limits: limits)
    }

    package convenience init(
        bytes: [UInt8], baseOffset: Int = 0, file: String = "", recordPath: String = "", limits: PayloadLimits = .default
    ) throws(PayloadError) {
        let owned = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = owned.initialize(from: bytes)
        try self.init(ownedBytes: owned, baseOffset: baseOffset, file: file, recordPath: recordPath, limits: limits)
    }

    /// Takes ownership of `ownedBytes`, freeing them if parsing fails.
    private convenience init(
        ownedBytes: UnsafeMutableBufferPointer<UInt8>, baseOffset: Int, file: String, recordPath: String, limits: PayloadLimits
    ) throws(PayloadError) {
        let input = UnsafeBufferPointer(ownedBytes)
        // Token fields are 32-bit to keep the tape small; no single element comes near 4 GiB.
        guard input.count < Int(UInt32.max) else {
            ownedBytes.deallocate()
            throw PayloadError(
                file: file, byteOffset: baseOffset, path: recordPath, expected: .valueUnder4GiB,
                found: "\(input.count) bytes")
        }
        var parser = JSONTapeParser(
            input: input, baseOffset: baseOffset, file: file, root: RecordPathRoot(prefix: recordPath, index: nil), limits: limits)
        let parsed: UnsafeBufferPointer<JSONToken>
        do {
            parsed = try parser.parse()
            parser.deallocate(keepingTokens: true)
        } catch {
            parser.deallocate(keepingTokens: false)
            ownedBytes.deallocate()
            throw error
        }
        self.init(
            bytes: input, ownsBytes: true, tokens: parsed, ownsTokens: true, baseOffset: baseOffset, file: file,
            root: RecordPathRoot(prefix: recordPath, index: nil))
    }

    private init(
        bytes: UnsafeBufferPointer<UInt8>, ownsBytes: Bool, tokens: UnsafeBufferPointer<JSONToken>, ownsTokens: Bool,
        baseOffset: Int, file: String, root: RecordPathRoot
    ) {
        self.file = file
        self.baseOffset = baseOffset
        pathPrefix = root.prefix
        pathIndex = root.index
        self.bytes = bytes
        self.ownsBytes = ownsBytes
        self.tokens = tokens
        self.ownsTokens = ownsTokens
    }

    /// What `parsingPrefix` made of a buffer.
    enum PrefixParse {
        case parsed(JSONTape, length: Int)
        /// The value may go on past the buffer's end (or be broken right at it): more bytes decide.
        case needsMoreBytes
        /// Not an object or array, or broken within the buffer.
        case invalid
    }

    /// Parses the object or array at the start of `bytes` where it lies, without copying: the fast
    /// path of a streamed array, whose read buffer holds the element and what follows it. The
    /// caller keeps `bytes` alive and unchanged while the tape lives. When it is `invalid`, the
    /// caller takes the checked path (delimit the element, copy it, parse it alone), which gives
    /// the error; errors are not built here.
    /// The tape's tokens live in `workspace`: it is valid until the workspace parses again.
    /// The parse itself is `importbench_json_parse_prefix` (C): the same tokens as
    /// `JSONTapeParser`, which stays the reference and gives the errors (JSONPrefixParseTests).
    /// A string or number longer than `limits` allows is `invalid`, so the checked path locates it.
    static func parsingPrefix(
        of bytes: UnsafeBufferPointer<UInt8>, baseOffset: Int, file: String, rootPrefix: String, rootIndex: Int? = nil,
        workspace: JSONTapeWorkspace, limits: PayloadLimits = .default
    ) -> PrefixParse {
        guard let first = bytes.first, first == .openBrace || first == .openBracket else {
            return bytes.isEmpty ? .needsMoreBytes : .invalid
        }
        guard bytes.count < Int(UInt32.max) else { return .invalid }
        guard let input = bytes.baseAddress else { return .needsMoreBytes }
        var tokenCount = 0
        var length = 0
        while true {
            let status = workspace.tokens.withMemoryRebound(to: importbench_json_token.self, capacity: workspace.tokenCapacity) {
                importbench_json_parse_prefix(
                    input, bytes.count, $0, workspace.tokenCapacity, workspace.openContainers,
                    limits.longestJSONStringBytes, limits.longestJSONNumberBytes, &tokenCount, &length)
            }
            switch Int(status) {
            case Int(IMPORTBENCH_JSON_PARSED): break
            case Int(IMPORTBENCH_JSON_TOKENS_FULL):
                workspace.growTokens()
                continue
            case Int(IMPORTBENCH_JSON_NEEDS_MORE_BYTES): return .needsMoreBytes
            default: return .invalid
            }
            break
        }
        let tokens = UnsafeBufferPointer(start: workspace.tokens, count: tokenCount)
        let parsed = UnsafeBufferPointer(rebasing: bytes[..<length])
        // The workspace's lent tape again, when the last element's readers have let it go: one
        // object per workspace instead of an allocation, its initialisation and a free per element.
        if workspace.lentTape != nil, isKnownUniquelyReferenced(&workspace.lentTape!), let tape = workspace.lentTape {
            tape.lend(bytes: parsed, tokens: tokens, baseOffset: baseOffset, file: file, rootPrefix: rootPrefix, rootIndex: rootIndex)
            return .parsed(tape, length: length)
        }
        let tape = JSONTape(
            bytes: parsed, ownsBytes: false, tokens: tokens, ownsTokens: false, baseOffset: baseOffset, file: file,
            root: RecordPathRoot(prefix: rootPrefix, index: rootIndex))
        workspace.lentTape = tape
        return .parsed(tape, length: length)
    }

    /// Points a tape of lent bytes and tokens at the next element; only its workspace calls it,
    /// while nothing else holds the tape. The file and path prefix are the last element's as a rule:
    /// compared rather than assigned, they cost no retain and release per element.
    private func lend(
        bytes: UnsafeBufferPointer<UInt8>, tokens: UnsafeBufferPointer<JSONToken>, baseOffset: Int, file: String, rootPrefix: String,
        rootIndex: Int?
    ) {
        precondition(!ownsBytes && !ownsTokens, "only a tape of lent buffers is pointed at another element")
        self.bytes = bytes
        self.tokens = tokens
        self.baseOffset = baseOffset
        // One workspace serves one reader, so the file is the same string every time.
        if self.file != file { self.file = file }
        if !Self.sameBytes(pathPrefix, rootPrefix) { pathPrefix = rootPrefix }
        pathIndex = rootIndex
        lookupHint = LookupHint()
    }

    /// Byte for byte: `==` would keep an earlier member name canonically equal to this one, and a
    /// generic walk of both UTF-8 views cost 1-2 % of decoding.
    private static func sameBytes(_ left: String, _ right: String) -> Bool {
        guard left.utf8.count == right.utf8.count else { return false }
        let compared = left.utf8.withContiguousStorageIfAvailable { leftBytes in
            right.utf8.withContiguousStorageIfAvailable { rightBytes in
                guard let leftStart = leftBytes.baseAddress, let rightStart = rightBytes.baseAddress else { return true }
                return memcmp(leftStart, rightStart, leftBytes.count) == 0
            }
        }
        return (compared ?? nil) ?? left.utf8.elementsEqual(right.utf8)
    }

    deinit {
        if ownsBytes { bytes.deallocate() }
        if ownsTokens { tokens.deallocate() }
    }

    /// The parsed value.
    package var root: JSONValue { JSONValue(tape: self, index: 0) }

    // MARK: Lookups

    /// The token index of the member value named `key`, or nil. Keys match by their exact UTF-8 after
    /// unescaping. A repeated key must repeat its value: `JSONDecoder` would silently keep the first,
    /// hiding which of two conflicting values the producer meant. Only objects the parser marked as
    /// repeating a key are searched past the first match, so lookups elsewhere cost what they did.
    func memberValueIndex(inObject object: Int, key: String) throws(PayloadError) -> Int? {
        // The UTF-8 view lends the bytes of the literal keys readers pass; `withUTF8` would copy the string first.
        var search = key.utf8.withContiguousStorageIfAvailable { findMember(inObject: object, wanted: $0) }
        if search == nil {
            var copy = key
            search = copy.withUTF8 { findMember(inObject: object, wanted: $0) }
        }
        guard let (found, repeated) = search else { return nil }
        if let repeated { throw duplicateKey(key, firstValue: found, secondKey: repeated) }
        return found >= 0 ? found : nil
    }

    /// The member value's token index (-1 when absent) and, in an object that may repeat keys, the
    /// key token of a second member with that name and another value.
    private func findMember(inObject object: Int, wanted: UnsafeBufferPointer<UInt8>) -> (found: Int, repeated: Int?) {
        let mayRepeat = tokens[object].flags.contains(.mayRepeatKeys)
        let count = Int(tokens[object].count)
        if !mayRepeat {
            // No key has escapes here, so bytes as written are bytes as read.
            guard tokens[object].keyBits & JSONToken.keyBit(wanted) != 0 else { return (-1, nil) }
            // From the hint to the end, then from the start to the hint.
            let hint = lookupHint
            let resume = hint.object == object && hint.remaining > 0
            var member = resume ? hint.nextMember : object + 1
            var remaining = resume ? hint.remaining : count
            var wrapped = !resume
            /// Members past the stretch being scanned: those from the hint on, once wrapped.
            var beyond = 0
            while true {
                while remaining > 0 {
                    remaining -= 1
                    let value = member + 1
                    if keyMatches(tokens[member], wanted) {
                        lookupHint = LookupHint(
                            object: object, nextMember: Int(tokens[value].next), remaining: remaining + beyond)
                        return (value, nil)
                    }
                    member = Int(tokens[value].next)
                }
                if wrapped { return (-1, nil) }
                wrapped = true
                member = object + 1
                remaining = count - hint.remaining
                beyond = hint.remaining
            }
        }
        var member = object + 1
        var remaining = count
        while remaining > 0 {
            remaining -= 1
            if keyMatches(tokens[member], wanted) {
                let value = member + 1
                member = Int(tokens[value].next)
                while remaining > 0 {
                    remaining -= 1
                    if keyMatches(tokens[member], wanted), !sameValue(value, member + 1) { return (value, member) }
                    member = Int(tokens[member + 1].next)
                }
                return (value, nil)
            }
            member = Int(tokens[member + 1].next)
        }
        return (-1, nil)
    }

    /// Whether two values have the same JSON text, whitespace aside.
    func sameValue(_ a: Int, _ b: Int) -> Bool {
        let length = Int(tokens[a].next) - a
        guard Int(tokens[b].next) - b == length else { return false }
        for offset in 0..<length {
            let left = tokens[a + offset]
            let right = tokens[b + offset]
            guard left.kind == right.kind, left.flags == right.flags else { return false }
            if left.kind == .object || left.kind == .array {
                guard left.count == right.count else { return false }
            } else if !span(of: left).elementsEqual(span(of: right)) {
                return false
            }
        }
        return true
    }

    func duplicateKey(_ key: String, firstValue: Int, secondKey: Int) -> PayloadError {
        PayloadError(
            file: file, byteOffset: baseOffset + Int(tokens[secondKey].start), path: recordPath(ofToken: secondKey),
            expected: .sameValueForRepeatedKey(key),
            found: "\"\(key)\" again with another value: first \(valueSnippet(firstValue)), then \(valueSnippet(secondKey + 1))")
    }

    /// The value's raw JSON text, shortened, for error messages; containers included.
    func valueSnippet(_ index: Int) -> String {
        let token = tokens[index]
        guard token.kind == .object || token.kind == .array else { return snippet(of: token) }
        // Containers do not record their end; the text is valid JSON, so bracket counting outside
        // strings finds it. Only error messages pay for this.
        var depth = 0
        var inString = false
        var position = Int(token.start)
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if inString {
                if byte == .backslash {
                    position += 1
                } else if byte == .quote {
                    inString = false
                }
            } else if byte == .quote {
                inString = true
            } else if byte == .openBrace || byte == .openBracket {
                depth += 1
            } else if byte == .closeBrace || byte == .closeBracket {
                depth -= 1
                if depth == 0 { break }
            }
        }
        return JSONBytes.snippet(UnsafeBufferPointer(rebasing: bytes[Int(token.start)..<min(position, bytes.count)]))
    }

    @inline(__always)
    private func keyMatches(_ token: JSONToken, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !token.flags.contains(.hasEscapes) else {
            return Self.decodeString(token, in: bytes).utf8.elementsEqual(wanted)
        }
        let length = Int(token.end) - Int(token.start) - 2
        guard length == wanted.count else { return false }
        return bytesEqual(from: Int(token.start) + 1, wanted)
    }

    /// Whether the tape's bytes from `start` are `wanted`'s. Keys are short, so no call to
    /// memcmp: words of eight bytes, the last one overlapping the one before; under eight bytes,
    /// two overlapping words of four; under four, bytes.
    @inline(__always)
    func bytesEqual(from start: Int, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        let length = wanted.count
        guard length > 0, let keyBase = bytes.baseAddress, let wantedBase = wanted.baseAddress else { return true }
        let key = UnsafeRawPointer(keyBase + start)
        let other = UnsafeRawPointer(wantedBase)
        if length >= 8 {
            var offset = 0
            while offset + 8 < length {
                guard
                    key.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                        == other.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                else { return false }
                offset += 8
            }
            return key.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
                == other.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
        }
        if length >= 4 {
            return key.loadUnaligned(as: UInt32.self) == other.loadUnaligned(as: UInt32.self)
                && key.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
                    == other.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
        }
        for offset in 0..<length
        where key.load(fromByteOffset: offset, as: UInt8.self) != other.load(fromByteOffset: offset, as: UInt8.self) {
            return false
        }
        return true
    }

    func string(of token: JSONToken) -> String {
        Self.decodeString(token, in: bytes)
    }

    /// The token's raw JSON text, shortened, for error messages.
    func snippet(of token: JSONToken) -> String {
        JSONBytes.snippet(span(of: token))
    }

    func span(of token: JSONToken) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[Int(token.start)..<Int(token.end)])
    }

    // MARK: Record paths

    /// Walks down from the root to the token, naming each step; only errors pay for it.
    func recordPath(ofToken target: Int) -> String {
        var path = recordPath
        var current = 0
        descent: while current != target {
            let container = tokens[current]
            guard container.kind == .object || container.kind == .array,
                target > current, target < Int(container.next)
            else { break }
            var child = current + 1
            for position in 0..<Int(container.count) {
                if container.kind == .object {
                    let valueIndex = child + 1
                    let after = Int(tokens[valueIndex].next)
                    if target < after {
                        path = Self.appending(key: string(of: tokens[child]), to: path)
                        current = target == child ? target : valueIndex
                        continue descent
                    }
                    child = after
                } else {
                    let after = Int(tokens[child].next)
                    if target < after {
                        path += "[\(position)]"
                        current = child
                        continue descent
                    }
                    child = after
                }
            }
            break
        }
        return path
    }

    static func appending(key: String, to path: String) -> String {
        path.isEmpty ? key : path + "." + key
    }

    // MARK: Strings

    static func decodeString(_ token: JSONToken, in input: UnsafeBufferPointer<UInt8>) -> String {
        let content = UnsafeBufferPointer(rebasing: input[(Int(token.start) + 1)..<(Int(token.end) - 1)])
        guard token.flags.contains(.hasEscapes) else { return String(decoding: content, as: UTF8.self) }
        // Unescaping never lengthens: "\n" is 2 bytes for 1, "\uXXXX" 6 for at most 3, a pair 12 for 4.
        return String(unsafeUninitializedCapacity: content.count) { unescape(content, into: $0) }
    }

    /// Copies `content` with its escapes decoded; the parser has already validated them, so a
    /// malformed escape (unreachable) becomes U+FFFD rather than a trap.
    static func unescape(
        _ content: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        var read = 0
        var written = 0
        func put(_ byte: UInt8) {
            if written < output.count {
                output[written] = byte
                written += 1
            }
        }
        func put(scalar: UInt32) {
            let scalar = (0xD800...0xDFFF).contains(scalar) || scalar > 0x10FFFF ? 0xFFFD : scalar
            switch scalar {
            case ..<0x80:
                put(UInt8(scalar))
            case ..<0x800:
                put(UInt8(0xC0 | scalar >> 6))
                put(UInt8(0x80 | scalar & 0x3F))
            case ..<0x10000:
                put(UInt8(0xE0 | scalar >> 12))
                put(UInt8(0x80 | scalar >> 6 & 0x3F))
                put(UInt8(0x80 | scalar & 0x3F))
            default:
                put(UInt8(0xF0 | scalar >> 18))
                put(UInt8(0x80 | scalar >> 12 & 0x3F))
                put(UInt8(0x80 | scalar >> 6 & 0x3F))
                put(UInt8(0x80 | scalar & 0x3F))
            }
        }
        guard let source = content.baseAddress, let target = output.baseAddress else { return 0 }
        while read < content.count {
            // Plain bytes up to the next backslash are found by `memchr` and copied whole: most of an
            // escaped string is plain, and byte by byte it cost 12-14 instructions a byte (cachegrind).
            let start = UnsafeRawPointer(source + read)
            let rest = content.count - read
            let run = memchr(start, Int32(UInt8.backslash), rest).map { start.distance(to: UnsafeRawPointer($0)) } ?? rest
            let copied = min(run, output.count - written)
            (target + written).update(from: source + read, count: copied)
            read += run
            written += copied
            guard read < content.count else { break }
            let byte = content[read]
            guard byte == .backslash, read + 1 < content.count else {
                put(byte)
                read += 1
                continue
            }
            let escaped = content[read + 1]
            read += 2
            switch escaped {
            case .lowercaseB: put(0x08)
            case .lowercaseF: put(0x0C)
            case .lowercaseN: put(0x0A)
            case .lowercaseR: put(0x0D)
            case .lowercaseT: put(0x09)
            case .lowercaseU:
                guard let unit = hexQuad(content, at: read) else {
                    put(scalar: 0xFFFD)
                    continue
                }
                read += 4
                if (0xD800...0xDBFF).contains(unit), read + 6 <= content.count,
                    content[read] == .backslash, content[read + 1] == .lowercaseU,
                    let low = hexQuad(content, at: read + 2), (0xDC00...0xDFFF).contains(low)
                {
                    read += 6
                    put(scalar: 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                } else {
                    put(scalar: unit)
                }
            default: put(escaped)
            }
        }
        return written
    }

    /// The four hex digits at `offset` as a UTF-16 code unit, or nil if they are not all there.
    static func hexQuad(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt32? {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for index in offset..<(offset + 4) {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    // MARK: Descriptions

    static func describe(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

}

/// The kinds of JSON value; `true` and `false` are both `bool`.
package enum JSONKind: UInt8, Sendable {
    case object, array, string, number, bool, null
}

/// One value (or object key) of the tape, in 16 bytes so that lookups stay within few cache lines.
/// Offsets are relative to the tape's bytes.
struct JSONToken: Sendable, Equatable {
    /// First byte: '{', '[', the opening quote, the sign or first digit, the literal's first letter.
    var start: UInt32
    /// Scalars: one past the last byte. Containers: their child count (their last byte is never needed).
    private var endOrCount: UInt32
    /// Index of the token after this value and everything inside it: its next sibling.
    var next: UInt32
    package var kind: JSONKind
    package var flags: JSONTokenFlags
    /// Objects: one bit per key, from its length and first and last bytes (`keyBit`), so most
    /// lookups of an absent key end without comparing any.
    var keyBits: UInt16 = 0

    static func scalar(_ kind: JSONKind, start: Int, end: Int, index: Int, flags: JSONTokenFlags) -> JSONToken {
        JSONToken(
            start: UInt32(truncatingIfNeeded: start), endOrCount: UInt32(truncatingIfNeeded: end),
            next: UInt32(truncatingIfNeeded: index + 1), kind: kind, flags: flags)
    }

    /// An open container; `count` and `next` are filled in as it is parsed.
    static func container(isObject: Bool, start: Int) -> JSONToken {
        JSONToken(
            start: UInt32(truncatingIfNeeded: start), endOrCount: 0, next: 0, kind: isObject ? .object : .array,
            flags: [])
    }

    /// The key's bit in its object's `keyBits`, from its bytes as written (unescaped keys only).
    @inline(__always)
    static func keyBit(_ key: UnsafeBufferPointer<UInt8>) -> UInt16 {
        guard let first = key.first, let last = key.last else { return 1 }
        return 1 << ((UInt(key.count) &* 7 &+ UInt(first) &+ UInt(last) &* 3) & 15)
    }

    /// Whether this struct is laid out as `importbench_json_token`, which the C prefix parse writes.
    static var matchesCLayout: Bool {
        MemoryLayout<JSONToken>.size == MemoryLayout<importbench_json_token>.size
            && MemoryLayout<JSONToken>.stride == MemoryLayout<importbench_json_token>.stride
            && MemoryLayout<JSONToken>.offset(of: \.start) == MemoryLayout<importbench_json_token>.offset(of: \.start)
            && MemoryLayout<JSONToken>.offset(of: \.endOrCount) == MemoryLayout<importbench_json_token>.offset(of: \.end_or_count)
            && MemoryLayout<JSONToken>.offset(of: \.next) == MemoryLayout<importbench_json_token>.offset(of: \.next)
            && MemoryLayout<JSONToken>.offset(of: \.kind) == MemoryLayout<importbench_json_token>.offset(of: \.kind)
            && MemoryLayout<JSONToken>.offset(of: \.flags) == MemoryLayout<importbench_json_token>.offset(of: \.flags)
            && MemoryLayout<JSONToken>.offset(of: \.keyBits) == MemoryLayout<importbench_json_token>.offset(of: \.key_bits)
            && JSONTape.maximumDepth == Int(IMPORTBENCH_JSON_MAXIMUM_DEPTH)
            // The C parse writes kinds as their position in `JSONKind` and flags as these bits.
            && [JSONKind.object, .array, .string, .number, .bool, .null].map(\.rawValue) == [0, 1, 2, 3, 4, 5]
            && [JSONTokenFlags.hasEscapes, .hasFractionOrExponent, .isTrue, .mayRepeatKeys].map(\.rawValue) == [1, 2, 4, 8]
    }

    /// One past the last byte of a scalar.
    var end: UInt32 { endOrCount }

    /// Members of an object (each a key token then a value), elements of an array.
    var count: UInt32 {
        get { endOrCount }
        set { endOrCount = newValue }
    }
}

struct JSONTokenFlags: OptionSet, Sendable {
    let rawValue: UInt8
    /// A string with at least one backslash escape: it needs unescaping when read.
    static let hasEscapes = JSONTokenFlags(rawValue: 1)
    /// A number with a fraction or exponent: it is not read through the integer fast path.
    static let hasFractionOrExponent = JSONTokenFlags(rawValue: 2)
    /// A `bool` token that is `true`.
    static let isTrue = JSONTokenFlags(rawValue: 4)
    /// An object where two keys have the same bytes, or where a key has escapes (and so may equal
    /// another once decoded): lookups check such objects for a second, conflicting member.
    static let mayRepeatKeys = JSONTokenFlags(rawValue: 8)
}
