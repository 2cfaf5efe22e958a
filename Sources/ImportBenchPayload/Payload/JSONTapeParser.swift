import CHotPath
import Foundation

/// A record path built only when asked: the array's path and the element's index.
struct RecordPathRoot {
    let prefix: String
    let index: Int?

    var text: String { index.map { "\(prefix)[\($0)]" } ?? prefix }
}

/// The token buffer and container stack that parsing an element needs, kept from one element to
/// the next: a streamed array's elements are parsed one at a time, so one allocation serves them all.
final class JSONTapeWorkspace {
    fileprivate(set) var tokens: UnsafeMutablePointer<JSONToken>
    fileprivate(set) var tokenCapacity: Int
    let openContainers: UnsafeMutablePointer<UInt32>
    /// The tape `JSONTape.parsingPrefix` last lent this workspace's tokens to, pointed at the next
    /// element when nothing else holds it any more.
    var lentTape: JSONTape?

    init() {
        tokenCapacity = 4096
        tokens = .allocate(capacity: tokenCapacity)
        openContainers = .allocate(capacity: JSONTape.maximumDepth)
    }

    deinit {
        tokens.deallocate()
        openContainers.deallocate()
    }

    /// Doubles the token buffer, for an element with more tokens than it holds.
    func growTokens() {
        tokens.deallocate()
        tokenCapacity *= 2
        tokens = .allocate(capacity: tokenCapacity)
    }
}

/// Builds the token list in one forward pass with an explicit stack of open containers, so hostile
/// nesting cannot overflow the call stack.
struct JSONTapeParser {
    let input: UnsafeBufferPointer<UInt8>
    let scanner: JSONScanner
    let baseOffset: Int
    let file: String
    let root: RecordPathRoot
    var recordPath: String { root.text }
    var position = 0
    /// Grown by doubling; handed to the tape on success, freed by `deallocate(keepingTokens:)` otherwise.
    var tokens: UnsafeMutablePointer<JSONToken>
    var tokenCapacity: Int
    var tokenCount = 0
    /// Token indexes of the containers being parsed, outermost first.
    let openContainers: UnsafeMutablePointer<UInt32>
    var depth = 0
    /// Per open container, 256 bits: the key signatures met so far in it (objects only).
    let seenKeys: UnsafeMutablePointer<UInt64>

    init(input: UnsafeBufferPointer<UInt8>, baseOffset: Int, file: String, root: RecordPathRoot, limits: PayloadLimits = .default) {
        self.input = input
        scanner = JSONScanner(
            input: input, baseOffset: baseOffset, longestString: limits.longestJSONStringBytes, longestNumber: limits.longestJSONNumberBytes)
        self.baseOffset = baseOffset
        self.file = file
        self.root = root
        // Roughly one token per 8 bytes in typical API payloads; growth covers the rest.
        tokenCapacity = input.count / 8 + 16
        tokens = UnsafeMutablePointer<JSONToken>.allocate(capacity: tokenCapacity)
        openContainers = UnsafeMutablePointer<UInt32>.allocate(capacity: JSONTape.maximumDepth)
        seenKeys = UnsafeMutablePointer<UInt64>.allocate(capacity: JSONTape.maximumDepth * 4)
    }

    func deallocate(keepingTokens: Bool) {
        openContainers.deallocate()
        seenKeys.deallocate()
        if !keepingTokens { tokens.deallocate() }
    }

    /// The whole input as one value, with nothing but whitespace after it.
    mutating func parse() throws(PayloadError) -> UnsafeBufferPointer<JSONToken> {
        var justOpened = try beginValue()
        while depth > 0 {
            let container = Int(openContainers[depth - 1])
            let isObject = tokens[container].kind == .object
            skipWhitespace()
            guard position < input.count else {
                throw truncated(expected: separatorExpectation(isObject: isObject, justOpened: justOpened))
            }
            let byte = input[position]
            if byte == (isObject ? .closeBrace : .closeBracket) {
                position += 1
                tokens[container].next = UInt32(truncatingIfNeeded: tokenCount)
                depth -= 1
                justOpened = false
                continue
            }
            if !justOpened {
                guard byte == .comma else {
                    throw failure(expected: separatorExpectation(isObject: isObject, justOpened: false), found: byte)
                }
                position += 1
                skipWhitespace()
            }
            tokens[container].count += 1
            if isObject { try beginMember(of: container, firstInObject: justOpened) }
            justOpened = try beginValue()
        }
        skipWhitespace()
        guard position == input.count else {
            throw failure(expected: .nothingAfterValue, found: input[position])
        }
        return UnsafeBufferPointer(start: tokens, count: tokenCount)
    }

    @inline(__always)
    private mutating func append(_ token: JSONToken) {
        if tokenCount == tokenCapacity { growTokens() }
        (tokens + tokenCount).initialize(to: token)
        tokenCount += 1
    }

    @inline(never)
    private mutating func growTokens() {
        let grown = UnsafeMutablePointer<JSONToken>.allocate(capacity: tokenCapacity * 2)
        grown.moveInitialize(from: tokens, count: tokenCount)
        tokens.deallocate()
        tokens = grown
        tokenCapacity *= 2
    }

    private func separatorExpectation(isObject: Bool, justOpened: Bool) -> PayloadExpectation {
        switch (isObject, justOpened) {
        case (true, true): return .key(orClosingBrace: true)
        case (true, false): return .comma(orClosing: .object)
        case (false, true): return .valueOrClosingBracket
        case (false, false): return .comma(orClosing: .array)
        }
    }

    /// Beyond this many keys, an object whose key signatures collide is not compared key by key.
    private static let comparedKeys = 64

    /// Reads a member's key and its colon, leaving the position before the value.
    @inline(__always)
    private mutating func beginMember(of object: Int, firstInObject: Bool) throws(PayloadError) {
        guard position < input.count else { throw truncated(expected: .key(orClosingBrace: false)) }
        guard input[position] == .quote else {
            throw failure(expected: .key(orClosingBrace: firstInObject), found: input[position])
        }
        let start = position
        let flags: JSONTokenFlags
        do throws(JSONScanner.Failure) {
            (position, flags) = try scanner.string(from: start)
        } catch {
            throw failure(error)
        }
        appendScalar(.string, start: start, flags: flags)
        // One bit per key signature (the C parser's `key_signature`: quoted length, first two and
        // last two bytes), so only a key whose bit is taken is compared in full.
        let length = position - start
        var mixed = UInt64(length) | UInt64(input[start + 1]) << 8 | UInt64(input[position - 2]) << 16
        if length >= 3 { mixed |= UInt64(input[start + 2]) << 24 | UInt64(input[position - 3]) << 32 }
        let signature = Int((mixed &* 0xFF51_AFD7_ED55_8CCD) >> 56)
        let seen = seenKeys + (depth - 1) * 4 + (signature >> 6)
        let bit = UInt64(1) << UInt64(signature & 63)
        let collides = seen.pointee & bit != 0
        seen.pointee |= bit
        if collides || flags.contains(.hasEscapes) { markIfKeyRepeats(object: object) }
        tokens[object].keyBits |= JSONToken.keyBit(UnsafeBufferPointer(rebasing: input[(start + 1)..<(position - 1)]))
        skipWhitespace()
        guard position < input.count else { throw truncated(expected: .colon(afterMemberName: false)) }
        guard input[position] == .colon else { throw failure(expected: .colon(afterMemberName: false), found: input[position]) }
        position += 1
    }

    /// Flags `object` `mayRepeatKeys` when its last key has escapes or the same bytes as an earlier key.
    /// Objects with many keys are flagged without comparing: walking them for every key would make
    /// parsing quadratic, while their lookups, already linear, only go on to the end.
    @inline(never)
    private func markIfKeyRepeats(object: Int) {
        guard !tokens[object].flags.contains(.mayRepeatKeys) else { return }
        let newKey = tokens[tokenCount - 1]
        let earlierKeys = Int(tokens[object].count) - 1
        var repeats = newKey.flags.contains(.hasEscapes) || earlierKeys > Self.comparedKeys
        let newBytes = input[Int(newKey.start)..<Int(newKey.end)]
        var member = object + 1
        for _ in 0..<earlierKeys where !repeats {
            let key = tokens[member]
            repeats = input[Int(key.start)..<Int(key.end)].elementsEqual(newBytes)
            member = Int(tokens[member + 1].next)
        }
        if repeats { tokens[object].flags.insert(.mayRepeatKeys) }
    }

    /// Parses a scalar whole, or opens a container and returns true.
    @inline(__always)
    private mutating func beginValue() throws(PayloadError) -> Bool {
        skipWhitespace()
        guard position < input.count else { throw truncated(expected: .value(orClosing: nil)) }
        let start = position
        let byte = input[position]
        switch byte {
        case .openBrace, .openBracket:
            guard depth < JSONTape.maximumDepth else {
                throw failure(expected: .limit(.nesting, JSONTape.maximumDepth), found: byte)
            }
            if byte == .openBrace { (seenKeys + depth * 4).initialize(repeating: 0, count: 4) }
            openContainers[depth] = UInt32(truncatingIfNeeded: tokenCount)
            depth += 1
            append(.container(isObject: byte == .openBrace, start: start))
            position += 1
            return true
        default:
            let kind: JSONKind
            let flags: JSONTokenFlags
            do throws(JSONScanner.Failure) {
                switch byte {
                case .quote:
                    (position, flags) = try scanner.string(from: start)
                    kind = .string
                case .minus, .digitZero ... .digitNine:
                    (position, flags) = try scanner.number(from: start)
                    kind = .number
                case .lowercaseT:
                    position = try scanner.literal("true", at: start)
                    (kind, flags) = (.bool, .isTrue)
                case .lowercaseF:
                    position = try scanner.literal("false", at: start)
                    (kind, flags) = (.bool, [])
                case .lowercaseN:
                    position = try scanner.literal("null", at: start)
                    (kind, flags) = (.null, [])
                default:
                    throw JSONScanner.Failure(index: start, expected: .value(orClosing: nil), found: JSONTape.describe(byte))
                }
            } catch {
                throw failure(error)
            }
            appendScalar(kind, start: start, flags: flags)
        }
        return false
    }

    @inline(__always)
    private mutating func appendScalar(_ kind: JSONKind, start: Int, flags: JSONTokenFlags) {
        append(.scalar(kind, start: start, end: position, index: tokenCount, flags: flags))
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < input.count {
            let byte = input[position]
            guard byte == .space || byte == .newline || byte == .carriageReturn || byte == .tab else { return }
            position += 1
        }
    }

    // MARK: Errors

    private func snippet(from index: Int, count: Int) -> String {
        JSONBytes.snippet(UnsafeBufferPointer(rebasing: input[index..<min(index + count, input.count)]))
    }

    /// Where the parse was: the member or element being read in each open container. Closed
    /// values already have their `next`, so each container's last key is found by hopping over them.
    private func currentPath() -> String {
        var path = recordPath
        for level in 0..<depth {
            let container = Int(openContainers[level])
            if tokens[container].kind == .array {
                if tokens[container].count > 0 { path += "[\(tokens[container].count - 1)]" }
                continue
            }
            let innerContainer = level + 1 < depth ? Int(openContainers[level + 1]) : tokenCount
            var key = container + 1
            var lastKey: Int?
            while key < innerContainer {
                lastKey = key
                guard key + 1 < innerContainer else { break }
                key = Int(tokens[key + 1].next)
            }
            if let lastKey {
                path = JSONTape.appending(key: JSONTape.decodeString(tokens[lastKey], in: input), to: path)
            }
        }
        return path
    }

    private func failure(_ scan: JSONScanner.Failure) -> PayloadError {
        PayloadError(
            file: file, byteOffset: baseOffset + scan.index, path: currentPath(), expected: scan.expected,
            found: scan.found)
    }

    private func failure(expected: PayloadExpectation, found byte: UInt8) -> PayloadError {
        failure(at: position, expected: expected, found: JSONTape.describe(byte))
    }

    private func failure(at index: Int, expected: PayloadExpectation, found: String) -> PayloadError {
        PayloadError(file: file, byteOffset: baseOffset + index, path: currentPath(), expected: expected, found: found)
    }

    private func truncated(expected: PayloadExpectation) -> PayloadError {
        PayloadError(
            file: file, byteOffset: baseOffset + input.count, path: currentPath(), expected: expected,
            found: "end of element")
    }
}

/// Scans one scalar from a given index and returns where it ends. Kept apart from the parser (and
/// its mutable state) so that calls pass two words instead of copying the parser; failures carry
/// only a position, and the parser adds the record path.
struct JSONScanner {
    let input: UnsafeBufferPointer<UInt8>
    let baseOffset: Int
    /// Bytes from quote to quote, and of a number's text, at the most (`PayloadLimits`).
    let longestString: Int
    let longestNumber: Int

    struct Failure: Error {
        let index: Int
        let expected: PayloadExpectation
        let found: String
    }

    private func truncated(_ expected: PayloadExpectation) -> Failure {
        Failure(index: input.count, expected: expected, found: "end of element")
    }

    private func snippet(from index: Int, count: Int) -> String {
        JSONBytes.snippet(UnsafeBufferPointer(rebasing: input[index..<min(index + count, input.count)]))
    }

    /// From the opening quote at `start` to past the closing one, validating escapes and UTF-8.
    func string(from start: Int) throws(Failure) -> (end: Int, flags: JSONTokenFlags) {
        var index = start + 1
        var flags: JSONTokenFlags = []
        let count = input.count
        guard let base = input.baseAddress else { throw truncated(.kind(.string)) }
        while true {
            // Straight to the next byte that needs a look, sixteen bytes at a time.
            index = importbench_json_string_special(base, index, count)
            guard index < count else { break }
            let byte = input[index]
            if byte == .quote {
                guard index + 1 - start <= longestString else {
                    throw Failure(
                        index: start,
                        expected: .limit(.jsonString, longestString),
                        found: "one of \(index + 1 - start) bytes")
                }
                return (index + 1, flags)
            } else if byte == .backslash {
                flags.insert(.hasEscapes)
                index = try escape(at: index)
            } else if byte >= 0x80 {
                index = try utf8Sequence(at: index)
            } else if byte < 0x20 {
                throw Failure(
                    index: index, expected: .stringContent(.character),
                    found: JSONTape.describe(byte))
            } else {
                index += 1
            }
        }
        throw truncated(.stringContent(.closingQuote(openedAt: baseOffset + start)))
    }

    /// Validates the escape whose backslash is at `index`; returns the index after it.
    private func escape(at index: Int) throws(Failure) -> Int {
        guard index + 1 < input.count else { throw truncated(.stringContent(.escape)) }
        switch input[index + 1] {
        case .quote, .backslash, .slash, .lowercaseB, .lowercaseF, .lowercaseN, .lowercaseR, .lowercaseT:
            return index + 2
        case .lowercaseU:
            guard let unit = JSONTape.hexQuad(input, at: index + 2) else {
                throw Failure(index: index, expected: .stringContent(.escape), found: snippet(from: index, count: 6))
            }
            if (0xDC00...0xDFFF).contains(unit) {
                throw Failure(
                    index: index, expected: .stringContent(.highSurrogate),
                    found: snippet(from: index, count: 6))
            }
            guard (0xD800...0xDBFF).contains(unit) else { return index + 6 }
            let low = index + 6
            guard low + 1 < input.count, input[low] == .backslash, input[low + 1] == .lowercaseU,
                let lowUnit = JSONTape.hexQuad(input, at: low + 2), (0xDC00...0xDFFF).contains(lowUnit)
            else {
                throw Failure(
                    index: index, expected: .stringContent(.lowSurrogate),
                    found: snippet(from: index, count: 12))
            }
            return low + 6
        default:
            throw Failure(index: index, expected: .stringContent(.escape), found: snippet(from: index, count: 2))
        }
    }

    /// Validates the multi-byte UTF-8 sequence starting at `index` (RFC 3629: no overlong forms, no
    /// surrogates, nothing above U+10FFFF); returns the index after it.
    private func utf8Sequence(at index: Int) throws(Failure) -> Int {
        guard let (length, secondRange) = UTF8Validator.sequence(startingWith: input[index]) else { throw invalidUTF8(at: index) }
        guard index + length <= input.count, secondRange.contains(input[index + 1]) else {
            throw invalidUTF8(at: index)
        }
        for continuation in (index + 2)..<(index + length) where input[continuation] & 0xC0 != 0x80 {
            throw invalidUTF8(at: index)
        }
        return index + length
    }

    private func invalidUTF8(at index: Int) -> Failure {
        let sequence = input[index..<min(index + 4, input.count)]
            .map { "0x" + String($0, radix: 16, uppercase: true) }.joined(separator: " ")
        return Failure(index: index, expected: .validUTF8(csvText: false), found: "bytes \(sequence)")
    }

    /// RFC 8259 numbers: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    func number(from start: Int) throws(Failure) -> (end: Int, flags: JSONTokenFlags) {
        var index = start
        var flags: JSONTokenFlags = []
        if input[index] == .minus { index += 1 }
        guard isDigit(at: index) else {
            throw digitExpected(at: index, after: .minus)
        }
        if input[index] == .digitZero {
            index += 1
        } else {
            while isDigit(at: index) { index += 1 }
        }
        if index < input.count, input[index] == .dot {
            flags.insert(.hasFractionOrExponent)
            index += 1
            guard isDigit(at: index) else { throw digitExpected(at: index, after: .point) }
            while isDigit(at: index) { index += 1 }
        }
        if index < input.count, input[index] | 0x20 == .lowercaseE {
            flags.insert(.hasFractionOrExponent)
            index += 1
            if index < input.count, input[index] == .plus || input[index] == .minus { index += 1 }
            guard isDigit(at: index) else { throw digitExpected(at: index, after: .exponent) }
            while isDigit(at: index) { index += 1 }
        }
        guard index - start <= longestNumber else {
            throw Failure(
                index: start, expected: .limit(.jsonNumber, longestNumber),
                found: "one of \(index - start)")
        }
        return (index, flags)
    }

    @inline(__always)
    private func isDigit(at index: Int) -> Bool {
        index < input.count && input[index] >= .digitZero && input[index] <= .digitNine
    }

    private func digitExpected(at index: Int, after what: PayloadExpectation.NumberPart) -> Failure {
        guard index < input.count else { return truncated(.digit(after: what)) }
        return Failure(index: index, expected: .digit(after: what), found: JSONTape.describe(input[index]))
    }

    /// Checks the literal at `start`; returns the index after it.
    func literal(_ literal: StaticString, at start: Int) throws(Failure) -> Int {
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        let end = start + expected.count
        guard end <= input.count, input[start..<end].elementsEqual(expected) else {
            var wordEnd = start
            while wordEnd < input.count, wordEnd - start < 40,
                input[wordEnd] | 0x20 >= .lowercaseA, input[wordEnd] | 0x20 <= .lowercaseZ
            {
                wordEnd += 1
            }
            throw Failure(
                index: start, expected: .literal("\(literal)"),
                found: JSONBytes.snippet(UnsafeBufferPointer(rebasing: input[start..<max(wordEnd, start + 1)])))
        }
        return end
    }
}
