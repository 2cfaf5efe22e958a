import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One element of the streamed array, as raw JSON bytes ready for a decoder.
package struct JSONArrayElement: Sendable {
    /// Position of the element within its array.
    package let index: Int
    /// Offset of the element's first byte in the file, for error messages.
    package let byteOffset: Int
    package let bytes: Data

    /// Whether a string of the element, as quotes delimit them, holds what looks like the seam
    /// between two elements: `}` or `]`, a comma, then `{` or `[`, whitespace allowed. A quote out
    /// of place turns strings and structure inside out until another restores them, and if that
    /// happens in a later element the splitter hands the elements between over as one: then the
    /// seams lie inside its strings. Only asked of elements that failed to parse.
    package var hasElementSeamInsideString: Bool {
        bytes.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var inString = false
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if inString {
                    if byte == .backslash {
                        index += 2
                        continue
                    }
                    if byte == .quote {
                        inString = false
                    } else if byte == .comma, Self.isSeam(in: bytes, comma: index) {
                        return true
                    }
                } else if byte == .quote {
                    inString = true
                }
                index += 1
            }
            return false
        }
    }

    private static func isSeam(in bytes: UnsafeBufferPointer<UInt8>, comma: Int) -> Bool {
        func isWhitespace(_ byte: UInt8) -> Bool {
            byte == .space || byte == .newline || byte == .carriageReturn || byte == .tab
        }
        var before = comma - 1
        while before >= 0, isWhitespace(bytes[before]) { before -= 1 }
        var after = comma + 1
        while after < bytes.count, isWhitespace(bytes[after]) { after += 1 }
        guard before >= 0, after < bytes.count else { return false }
        return (bytes[before] == .closeBrace || bytes[before] == .closeBracket)
            && (bytes[after] == .openBrace || bytes[after] == .openBracket)
    }
}

/// Splits one array of a JSON file into its elements without loading the file: it reads fixed-size
/// chunks and keeps only the element being scanned, so memory is bounded by the largest element plus
/// a chunk, whatever the payload size.
///
/// The array is found by a key path (`["channels"]` for `{"channels":[...]}`, `[]` for a top-level
/// array). Values of other keys, before or after it, are skipped with string, escape and nesting
/// awareness, and the rest of the document is checked for truncation once the array ends. Elements'
/// own contents are only scanned for their extent (strings, escapes and bracket pairs); the decoder
/// that receives them validates them, so a damaged element whose brackets still pair up is handed
/// over whole and the next one found after it. Anything else malformed (truncation, a mismatched
/// bracket, text between elements, a second member with the array's key) throws `PayloadError`
/// with the byte offset where scanning stopped, and is final: it leaves the element boundaries unknown.
package final class JSONArrayElementReader {
    package let path: String
    /// The collection being read: its parent's path and its name (the target met last).
    package private(set) var arrayPath: [String]
    /// `arrayPath` as record paths begin: `channels`, or empty for a top-level array.
    private var arrayPathText: String
    /// The names of the collections read, siblings in one parent object (one for a single array),
    /// and which have been met; `currentTarget` indexes them.
    private let targetNames: [String]
    private var targetMet: [Bool]
    @exclusivity(unchecked) package private(set) var currentTarget = 0
    /// The collection whose elements are parsed in place; the others' are only delimited (the
    /// caller sets aside their bytes, to parse them later). nil: every collection's are parsed.
    @exclusivity(unchecked) package var parsedTarget: Int?
    /// Reused by every element parsed in place; a tape handed out is valid until the next element.
    private let workspace = JSONTapeWorkspace()

    private let chunkSize: Int
    /// The longest element, string and number read; an element is kept whole in `storage`.
    package let limits: PayloadLimits
    private let hasher: PayloadHasher?
    private var longestElementBytes: Int { limits.longestJSONElementBytes }
    /// The file's bytes, inflated when it is gzip-compressed.
    private let input: PayloadInput
    // The scan's state below is read and written on every element by this class's own methods,
    // one at a time; checked, its accesses cost 5-7 % of decoding products (perf samples of
    // swift_beginAccess from advance and parseInPlace, 2026-11-26), hence `@exclusivity(unchecked)`.
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    /// Valid bytes are storage[0..<count]; storage[0] is at file offset `storageFileOffset`.
    @exclusivity(unchecked) private var count = 0
    @exclusivity(unchecked) private var storageFileOffset = 0
    /// Next byte to examine.
    @exclusivity(unchecked) private var position = 0
    /// Start of bytes that must survive the next refill (the element or key being scanned).
    @exclusivity(unchecked) private var retainedStart: Int?
    /// Length of the last element parsed in place.
    @exclusivity(unchecked) private var lastElementLength = 0
    /// Set once a read returned nothing.
    @exclusivity(unchecked) private var reachedEndOfFile = false

    private enum Phase { case beforeArray, inArray, finished }
    @exclusivity(unchecked) private var phase = Phase.beforeArray
    @exclusivity(unchecked) private var nextIndex = 0
    /// Whether the collection may be an object whose members are the elements (`{"138586341": {...}}`).
    private let acceptsObject: Bool
    /// Set once the collection turned out to be such an object.
    @exclusivity(unchecked) package private(set) var readsMembers = false
    /// The member name of the element last handed out, when the collection is an object, and
    /// where its opening quote is in the file.
    @exclusivity(unchecked) package private(set) var currentMemberName: String?
    @exclusivity(unchecked) package private(set) var currentMemberNameOffset: Int?
    /// Errors are final: the stream position after one is meaningless, so later calls repeat it.
    @exclusivity(unchecked) private var failure: PayloadError?
    /// Where the collection closed last (its ']' or '}'), for `noElement`.
    @exclusivity(unchecked) private var lastClosingOffset: Int?

    /// - Parameter chunkSize: bytes per read; small values exist for tests of chunk boundaries.
    /// - Parameter limits: an element longer than its `longestJSONElementBytes` is refused where it
    ///   starts, so an element that never ends cannot grow memory without bound.
    /// - Parameter hasher: fed every byte read, in order, when the caller wants the payload's hash.
    /// - Parameter acceptsObject: the collection may also be an object, each member an element, named
    ///   by its member name (`currentMemberName`, and `events["138586341"]` in record paths).
    /// - Parameter siblings: more collections beside the one `arrayPath` names, in the same parent
    ///   object: all are read in one pass, in the file's order, each element in `currentTarget`'s
    ///   (0 for `arrayPath`'s, then the siblings in order).
    package init(
        path: String, arrayPath: [String], chunkSize: Int = 1 << 20, limits: PayloadLimits = .default, hasher: PayloadHasher? = nil,
        acceptsObject: Bool = false, siblings: [String] = []
    ) throws {
        precondition(siblings.isEmpty || !arrayPath.isEmpty, "sibling collections of the document itself")
        self.acceptsObject = acceptsObject
        input = try PayloadInput(path: path, expected: .readable(.file))
        self.path = path
        self.arrayPath = arrayPath
        arrayPathText = arrayPath.joined(separator: ".")
        targetNames = arrayPath.last.map { [$0] + siblings } ?? []
        targetMet = targetNames.map { _ in false }
        self.chunkSize = max(chunkSize, 1)
        self.limits = limits
        self.hasher = hasher
        capacity = max(self.chunkSize * 2, 64)
        storage = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    }

    deinit {
        storage.deallocate()
    }

    /// An element as `next()` hands it over.
    package enum Element {
        /// Parsed in place: its tape borrows the read buffer, so it is valid until the next call.
        case parsed(JSONTape, index: Int)
        /// Delimited and copied, not parsed yet.
        case delimited(JSONArrayElement)

        package var index: Int {
            switch self {
            case .parsed(_, let index): return index
            case .delimited(let element): return element.index
            }
        }

        package var byteOffset: Int {
            switch self {
            case .parsed(let tape, _): return tape.baseOffset
            case .delimited(let element): return element.byteOffset
            }
        }

        /// The element's length in bytes: it ends at `byteOffset + byteCount`.
        package var byteCount: Int {
            switch self {
            case .parsed(let tape, _): return tape.bytes.count
            case .delimited(let element): return element.bytes.count
            }
        }

        /// The element's JSON text.
        package var text: String {
            switch self {
            case .parsed(let tape, _): return String(decoding: tape.bytes, as: UTF8.self)
            case .delimited(let element): return String(decoding: element.bytes, as: UTF8.self)
            }
        }
    }

    /// The next element, or nil once the array has ended and the rest of the document checked.
    package func next() throws -> Element? {
        if let failure { throw failure }
        do {
            return try advance()
        } catch let error as PayloadError {
            failure = error
            throw error
        }
    }

    // MARK: Elements

    private func advance() throws -> Element? {
        switch phase {
        case .finished:
            return nil
        case .beforeArray:
            try openTargetArray()
            phase = .inArray
            guard try atFirstElement() else { return nil }
        case .inArray:
            guard let separator = try peekSignificantByte() else {
                throw truncated(expected: .separator(after: lastElement, of: collection))
            }
            if separator == closingByte {
                guard try closeAndOpenNext() else { return nil }
                break
            }
            guard separator == .comma else {
                throw failure(expected: .separator(after: lastElement, of: collection), found: Self.describe(separator))
            }
            position += 1
            guard try peekSignificantByte() != nil else {
                throw truncated(expected: .element(of: collection, orClosing: false))
            }
        }
        if readsMembers { try readMemberName() }
        retainedStart = position
        defer { retainedStart = nil }
        if parsedTarget == nil || parsedTarget == currentTarget, let parsed = try parseInPlace() { return parsed }
        try skipValue(context: elementPath(nextIndex))
        guard let start = retainedStart else {
            throw failure(expected: .elementStart(nextIndex), found: "a lost scan position")
        }
        guard position - start <= longestElementBytes else { throw elementTooLong(startingAt: start) }
        let element = JSONArrayElement(
            index: nextIndex, byteOffset: storageFileOffset + start,
            bytes: Data(bytes: storage + start, count: position - start))
        nextIndex += 1
        return .delimited(element)
    }

    /// The fast path: the element parsed where it lies in the buffer, reading on (doubling what
    /// is buffered each time, so an element is parsed at most about twice over) while it may go on
    /// past the buffer's end. Nil for anything else (a scalar, a damaged element, the end of the
    /// file), which goes the checked way: delimit the element first, then parse a copy.
    private func parseInPlace() throws -> Element? {
        // Elements of one array tend to be alike in size: when fewer bytes are buffered than the
        // last element took, read on first rather than parse most of this one only to start again.
        while count - position < lastElementLength, !reachedEndOfFile {
            guard try refill() else { break }
        }
        while true {
            switch parseBuffered() {
            case .parsed(let tape, let length):
                guard length <= longestElementBytes else { throw elementTooLong(startingAt: position) }
                position += length
                lastElementLength = length
                defer { nextIndex += 1 }
                return .parsed(tape, index: nextIndex)
            case .invalid:
                return nil
            case .needsMoreBytes:
                let buffered = count - position
                while count - position < 2 * buffered {
                    guard try refill() else { return nil }
                }
            }
        }
    }

    /// The C parse of the element at `position`. An array's elements are named by the array's path
    /// and an index, passed apart so that the lent tape keeps its path's text (no retain per element).
    private func parseBuffered() -> JSONTape.PrefixParse {
        let bytes = UnsafeBufferPointer(start: storage + position, count: count - position)
        if readsMembers {
            return JSONTape.parsingPrefix(
                of: bytes, baseOffset: storageFileOffset + position, file: path, rootPrefix: elementPath(nextIndex), workspace: workspace,
                limits: limits)
        }
        return JSONTape.parsingPrefix(
            of: bytes, baseOffset: storageFileOffset + position, file: path, rootPrefix: arrayPathText, rootIndex: nextIndex,
            workspace: workspace, limits: limits)
    }

    /// Just after a collection opened: true at its first element; if it is empty, what
    /// `closeAndOpenNext` says.
    private func atFirstElement() throws -> Bool {
        guard let first = try peekSignificantByte() else {
            throw truncated(expected: .element(of: collection, orClosing: true))
        }
        if first == closingByte { return try closeAndOpenNext() }
        return true
    }

    /// Consumes the collection's closing byte; while sibling collections are still to be met, goes
    /// on through the parent's members to the next one: true at its first element, false once the
    /// document is read to its end.
    private func closeAndOpenNext() throws -> Bool {
        lastClosingOffset = storageFileOffset + position
        position += 1
        if targetMet.contains(false) {
            try openNextSibling()
            return try atFirstElement()
        }
        try finishDocument()
        phase = .finished
        return false
    }

    /// The parent's members after a collection, up to the next sibling collection, which it opens.
    private func openNextSibling() throws {
        let owner = Array(arrayPath.dropLast())
        while true {
            guard let separator = try peekSignificantByte() else { throw truncated(expected: .comma(orClosing: .object, of: owner)) }
            if separator == .closeBrace { throw failure(expected: missingTargets(in: owner), found: "end of object") }
            guard separator == .comma else { throw failure(expected: .comma(orClosing: .object, of: owner), found: Self.describe(separator)) }
            position += 1
            guard let quote = try peekSignificantByte() else { throw truncated(expected: .key(orClosingBrace: false)) }
            guard quote == .quote else { throw failure(expected: .key(orClosingBrace: false), found: Self.describe(quote)) }
            let keyOffset = storageFileOffset + position
            let key = try readKey()
            try consume(.colon, expected: .colon(afterMemberName: false))
            if let target = targetNames.indices.first(where: { key.elementsEqual(targetNames[$0].utf8) }) {
                guard !targetMet[target] else { throw secondMember(targetNames[target], at: keyOffset, owner: owner) }
                select(target)
                try openCollection()
                return
            }
            try skipMemberValue(owner: owner)
        }
    }

    /// Whether the collection `target` (0 for `arrayPath`'s, then the siblings) has been met.
    package func hasMet(_ target: Int) -> Bool { targetMet[target] }

    /// The document's collections held no element (`[]`, `{"features": []}`): refused where the
    /// last one closed, as an empty file is where it ends.
    package func noElement() -> PayloadError {
        let offset = lastClosingOffset ?? storageFileOffset + position
        guard targetNames.count <= 1 else {
            let parent = arrayPath.dropLast().joined(separator: ".")
            return PayloadError.noElement(
                inCollections: targetNames.map { parent.isEmpty ? $0 : parent + "." + $0 }, file: path, byteOffset: offset)
        }
        return PayloadError(
            file: path, byteOffset: offset, path: arrayPathText.isEmpty ? nil : arrayPathText,
            expected: .atLeastOne(.element(in: collection)), found: readsMembers ? "an empty object" : "an empty array")
    }

    /// Makes `target` the collection being read, from its first element.
    private func select(_ target: Int) {
        currentTarget = target
        targetMet[target] = true
        arrayPath[arrayPath.count - 1] = targetNames[target]
        arrayPathText = arrayPath.joined(separator: ".")
        nextIndex = 0
        currentMemberName = nil
        currentMemberNameOffset = nil
    }

    /// `key "channels" in the document`, or for several collections the ones not met yet.
    private func missingTargets(in owner: [String]) -> PayloadExpectation {
        .member(named: targetNames.indices.filter { !targetMet[$0] }.map { targetNames[$0] }, in: owner)
    }

    private func secondMember(_ name: String, at keyOffset: Int, owner: [String]) -> PayloadError {
        PayloadError(
            file: path, byteOffset: keyOffset, path: (arrayPath.dropLast() + [name]).joined(separator: "."),
            expected: .oneMember(name, in: owner), found: "a second \"\(name)\"")
    }

    /// The collection being read, as errors name it: `array "channels"`, `the top-level object`.
    private var collection: PayloadExpectation.ElementCollection { readsMembers ? .object(arrayPath) : .array(arrayPath) }

    private var closingByte: UInt8 { readsMembers ? .closeBrace : .closeBracket }

    /// The element last handed out, as errors name it: `element 3`, `member "138586341"`.
    private var lastElement: PayloadExpectation.ElementName {
        readsMembers ? .member(currentMemberName ?? "") : .index(nextIndex - 1)
    }

    /// The record path of element `index`: `channels[3]`, or `[3]` for a top-level array; for a
    /// collection that is an object, the member being read: `events["138586341"]`.
    package func elementPath(_ index: Int) -> String {
        if readsMembers, let name = currentMemberName { return Self.memberPath(arrayPathText, name) }
        return RecordPathRoot(prefix: arrayPathText, index: index).text
    }

    /// The record path of member `name` of the collection at `collectionPath`: `events["138586341"]`.
    static func memberPath(_ collectionPath: String, _ name: String) -> String {
        collectionPath + "[" + quotedName(name) + "]"
    }

    /// A member name as a record path writes it: in quotes, a quote or backslash in it escaped.
    /// Built for every element of a collection that is an object: a name with nothing to escape,
    /// the rule, skips Foundation's search (a fifth of decoding a normalized document).
    static func quotedName(_ name: String) -> String {
        guard name.utf8.contains(where: { $0 == .backslash || $0 == .quote }) else { return "\"" + name + "\"" }
        return "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// Reads the next member's name and its ':' (a collection that is an object).
    private func readMemberName() throws {
        guard let quote = try peekSignificantByte() else { throw truncated(expected: .memberName(in: collection)) }
        guard quote == .quote else { throw failure(expected: .memberName(in: collection), found: Self.describe(quote)) }
        currentMemberNameOffset = storageFileOffset + position
        currentMemberName = String(decoding: try readKey(), as: UTF8.self)
        try consume(.colon, expected: .colon(afterMemberName: true))
        guard try peekSignificantByte() != nil else { throw truncated(expected: .memberValue(lastElement)) }
    }

    // MARK: Navigation

    /// Descends through the objects named by `arrayPath` and consumes the array's '['. A UTF-8
    /// byte order mark before the document (RFC 8259 lets a parser ignore it; editors on Windows
    /// write one) is skipped.
    private func openTargetArray() throws {
        while count - position < 3, !reachedEndOfFile {
            guard try refill() else { break }
        }
        if count - position >= 3, storage[position] == 0xEF, storage[position + 1] == 0xBB, storage[position + 2] == 0xBF {
            position += 3
        }
        guard try peekSignificantByte() != nil else {
            throw PayloadError(
                file: path, byteOffset: storageFileOffset + count, path: nil,
                expected: arrayPath.isEmpty ? .openingBracket(of: nil) : .openingBrace(of: []),
                found: PayloadError.emptyFile(bytes: storageFileOffset + count, compressed: input.isCompressed))
        }
        for (depth, component) in arrayPath.enumerated() {
            let owner = Array(arrayPath[..<depth])
            try consume(.openBrace, expected: .openingBrace(of: owner))
            if depth == arrayPath.count - 1 {
                try findTarget(in: owner)
            } else {
                try findKey(component, in: owner)
            }
        }
        try openCollection()
    }

    /// Consumes the collection's opening byte: '[', or '{' where an object's members may be the elements.
    private func openCollection() throws {
        readsMembers = false
        if acceptsObject, try peekSignificantByte() == .openBrace {
            readsMembers = true
            position += 1
            return
        }
        try consume(.openBracket, expected: .openingBracket(of: arrayPath.isEmpty ? nil : .array(arrayPath)))
    }

    /// Skips members until one of the collections' keys, which it selects, leaving the position at its value.
    private func findTarget(in owner: [String]) throws {
        var isFirstMember = true
        while true {
            guard let byte = try peekSignificantByte() else { throw truncated(expected: missingTargets(in: owner)) }
            if byte == .closeBrace && isFirstMember { throw failure(expected: missingTargets(in: owner), found: "end of object") }
            guard byte == .quote else {
                throw failure(expected: .key(orClosingBrace: isFirstMember), found: Self.describe(byte))
            }
            let key = try readKey()
            try consume(.colon, expected: .colon(afterMemberName: false))
            if let target = targetNames.indices.first(where: { key.elementsEqual(targetNames[$0].utf8) }) {
                select(target)
                return
            }
            try skipMemberValue(owner: owner)
            guard let separator = try peekSignificantByte() else { throw truncated(expected: .comma(orClosing: .object)) }
            if separator == .closeBrace { throw failure(expected: missingTargets(in: owner), found: "end of object") }
            guard separator == .comma else { throw failure(expected: .comma(orClosing: .object), found: Self.describe(separator)) }
            position += 1
            isFirstMember = false
        }
    }

    /// Skips members until `component`'s key, leaving the position at its value.
    private func findKey(_ component: String, in owner: [String]) throws {
        let wanted = Array(component.utf8)
        func missing() -> PayloadExpectation { .member(named: [component], in: owner) }
        var isFirstMember = true
        while true {
            guard let byte = try peekSignificantByte() else { throw truncated(expected: missing()) }
            if byte == .closeBrace && isFirstMember { throw failure(expected: missing(), found: "end of object") }
            guard byte == .quote else {
                throw failure(expected: .key(orClosingBrace: isFirstMember), found: Self.describe(byte))
            }
            let key = try readKey()
            try consume(.colon, expected: .colon(afterMemberName: false))
            if key == wanted { return }
            try skipMemberValue(owner: owner)
            guard let separator = try peekSignificantByte() else { throw truncated(expected: .comma(orClosing: .object)) }
            if separator == .closeBrace { throw failure(expected: missing(), found: "end of object") }
            guard separator == .comma else { throw failure(expected: .comma(orClosing: .object), found: Self.describe(separator)) }
            position += 1
            isFirstMember = false
        }
    }

    /// After the array: the remaining members of each enclosing object, then nothing but whitespace.
    private func finishDocument() throws {
        for depth in stride(from: arrayPath.count, to: 0, by: -1) {
            let owner = Array(arrayPath[..<(depth - 1)])
            while true {
                guard let separator = try peekSignificantByte() else {
                    throw truncated(expected: .comma(orClosing: .object, of: owner))
                }
                position += 1
                if separator == .closeBrace { break }
                guard separator == .comma else {
                    position -= 1
                    throw failure(expected: .comma(orClosing: .object, of: owner), found: Self.describe(separator))
                }
                guard let quote = try peekSignificantByte() else { throw truncated(expected: .key(orClosingBrace: false)) }
                guard quote == .quote else { throw failure(expected: .key(orClosingBrace: false), found: Self.describe(quote)) }
                let keyOffset = storageFileOffset + position
                let key = try readKey()
                // The array was read from the first member of that name; a second could only conflict
                // with it, and streaming cannot compare the two.
                let names = depth == arrayPath.count ? targetNames : [arrayPath[depth - 1]]
                if let component = names.first(where: { key.elementsEqual($0.utf8) }) {
                    throw PayloadError(
                        file: path, byteOffset: keyOffset, path: (arrayPath[..<(depth - 1)] + [component]).joined(separator: "."),
                        expected: .oneMember(component, in: owner), found: "a second \"\(component)\"")
                }
                try consume(.colon, expected: .colon(afterMemberName: false))
                try skipMemberValue(owner: owner)
            }
        }
        if let trailing = try peekSignificantByte() {
            throw failure(expected: .endOfFileAfterDocument, found: Self.describe(trailing))
        }
    }

    private func skipMemberValue(owner: [String]) throws {
        guard try peekSignificantByte() != nil else { throw truncated(expected: .valueOfMember(in: owner)) }
        try skipValue(context: nil)
    }

    /// Reads the key string at `position` (its opening quote), unescaping only when it has escapes.
    private func readKey() throws -> [UInt8] {
        retainedStart = position
        defer { retainedStart = nil }
        try skipValue(context: nil)
        guard let start = retainedStart else { return [] }
        let quoted = UnsafeBufferPointer(start: storage + start, count: position - start)
        guard quoted.contains(.backslash) else { return Array(quoted.dropFirst().dropLast()) }
        let options = JSONSerialization.ReadingOptions.fragmentsAllowed
        guard let key = (try? JSONSerialization.jsonObject(with: Data(quoted), options: options)) as? String else {
            throw PayloadError(
                file: path, byteOffset: storageFileOffset + start, path: nil, expected: .validKeyString,
                found: JSONBytes.snippet(quoted))
        }
        return Array(key.utf8)
    }

    /// Steps over `byte`, the next significant one; `expected`, made only when it is not, says what it should be.
    private func consume(_ byte: UInt8, expected: @autoclosure () -> PayloadExpectation) throws {
        guard let found = try peekSignificantByte() else { throw truncated(expected: expected()) }
        guard found == byte else { throw failure(expected: expected(), found: Self.describe(found)) }
        position += 1
    }

    // MARK: Scanning

    /// The byte at `position` after skipping whitespace, or nil at the end of the file.
    private func peekSignificantByte() throws -> UInt8? {
        while true {
            while position < count {
                let byte = storage[position]
                guard byte == .space || byte == .newline || byte == .carriageReturn || byte == .tab else {
                    return byte
                }
                position += 1
            }
            guard try refill() else { return nil }
        }
    }

    /// Skips the value starting at `position` (a significant byte already in the buffer).
    private func skipValue(context: String?) throws {
        let first = storage[position]
        if first == .quote || first == .openBrace || first == .openBracket {
            try skipStringOrContainer(context: context)
        } else {
            try skipScalar(context: context)
        }
    }

    /// The hot loop: one pass over the bytes, tracking only string/escape state and bracket nesting.
    private func skipStringOrContainer(context: String?) throws {
        var openers: [UInt8] = []
        var inString = false
        let valueStart = storageFileOffset + position
        if storage[position] == .quote {
            inString = true
        } else {
            openers.append(storage[position])
        }
        var index = position + 1
        while true {
            let end = count
            let bytes = storage
            while index < end {
                if index + 8 <= end {
                    // Eight bytes at a time to the next byte that matters: in a string a quote or a
                    // backslash (most of a payload is string content), between strings a quote or a
                    // bracket (a pretty-printed document is mostly white space there).
                    let word = UInt64(littleEndian: UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self))
                    let found = inString ? JSONBytes.quoteOrBackslashMask(word) : JSONBytes.quoteOrBracketMask(word)
                    if found == 0 {
                        index += 8
                        continue
                    }
                    index += found.trailingZeroBitCount &>> 3
                }
                let byte = bytes[index]
                if inString {
                    if byte == .backslash {
                        // May step one past `end`; the overshoot is carried across the refill below.
                        index += 2
                        continue
                    }
                    if byte == .quote {
                        inString = false
                        if openers.isEmpty {
                            position = index + 1
                            return
                        }
                    }
                    index += 1
                    continue
                }
                switch byte {
                case .quote:
                    inString = true
                case .openBrace, .openBracket:
                    openers.append(byte)
                case .closeBrace, .closeBracket:
                    let expectedOpener: UInt8 = byte == .closeBrace ? .openBrace : .openBracket
                    let opener = openers.popLast()
                    guard opener == expectedOpener else {
                        position = index
                        let container: PayloadExpectation.Container? = opener == .openBrace ? .object : (opener == .openBracket ? .array : nil)
                        throw failure(expected: .value(orClosing: container), found: Self.describe(byte), path: context)
                    }
                    if openers.isEmpty {
                        position = index + 1
                        return
                    }
                default:
                    break
                }
                index += 1
            }
            let overshoot = index - end
            position = end
            guard try refill() else {
                let container: PayloadExpectation.Container? = inString ? nil : (openers.last == .openBrace ? .object : .array)
                throw truncated(expected: .cutShort(container, startingAt: valueStart), path: context)
            }
            index = position + overshoot
        }
    }

    /// Numbers and literals: consumed up to the next delimiter, with literals checked exactly outside
    /// elements (`context` nil); an element's are left to its decoder, which may skip the element.
    private func skipScalar(context: String?) throws {
        let first = storage[position]
        let isLiteral = first == .lowercaseT || first == .lowercaseF || first == .lowercaseN
        guard isLiteral || first == .minus || (first >= .digitZero && first <= .digitNine) else {
            throw failure(expected: .value(orClosing: nil), found: Self.describe(first), path: context)
        }
        let ownsRetention = retainedStart == nil
        if ownsRetention { retainedStart = position }
        defer { if ownsRetention { retainedStart = nil } }
        var length = 0
        scan: while true {
            while position < count {
                let byte = storage[position]
                guard Self.isScalarByte(byte) else { break scan }
                position += 1
                length += 1
            }
            guard try refill() else { break }
        }
        guard isLiteral, context == nil else { return }
        let token = UnsafeBufferPointer(start: storage + position - length, count: length)
        let literal: StaticString = first == .lowercaseT ? "true" : (first == .lowercaseF ? "false" : "null")
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        guard token.elementsEqual(expected) else {
            throw PayloadError(
                file: path, byteOffset: storageFileOffset + position - length, path: context,
                expected: .value(orClosing: nil), found: JSONBytes.snippet(token))
        }
    }

    @inline(__always)
    private static func isScalarByte(_ byte: UInt8) -> Bool {
        let lowercased = byte | 0x20
        return (byte >= .digitZero && byte <= .digitNine) || (lowercased >= .lowercaseA && lowercased <= .lowercaseZ)
            || byte == .minus || byte == .plus || byte == .dot
    }

    /// Drops consumed bytes, then reads one more chunk; false at the end of the file.
    private func refill() throws -> Bool {
        let keepFrom = min(retainedStart ?? position, count)
        if keepFrom > 0 {
            let kept = count - keepFrom
            if kept > 0 { memmove(storage, storage + keepFrom, kept) }
            storageFileOffset += keepFrom
            count = kept
            position -= keepFrom
            if let retained = retainedStart { retainedStart = retained - keepFrom }
        }
        if let retained = retainedStart, count - retained > longestElementBytes { throw elementTooLong(startingAt: retained) }
        let received = try input.read(
            appendingTo: &storage, capacity: &capacity, count: &count, chunk: chunkSize, offset: storageFileOffset, hasher: hasher)
        guard received > 0 else {
            reachedEndOfFile = true
            return false
        }
        return true
    }

    // MARK: Errors

    /// The element (or, before the array, the key) that starts at `start` in `storage` holds more
    /// than `longestElementBytes`.
    private func elementTooLong(startingAt start: Int) -> PayloadError {
        let path = phase == .inArray ? elementPath(nextIndex) : arrayPathText
        return PayloadError(
            file: self.path, byteOffset: storageFileOffset + start, path: path.isEmpty ? nil : path,
            expected: .limit(.jsonElement, longestElementBytes),
            found: "a longer one")
    }

    private func failure(expected: PayloadExpectation, found: String, path: String? = nil) -> PayloadError {
        PayloadError(
            file: self.path, byteOffset: storageFileOffset + position, path: path,
            expected: expected, found: found)
    }

    private func truncated(expected: PayloadExpectation, path: String? = nil) -> PayloadError {
        PayloadError(
            file: self.path, byteOffset: storageFileOffset + count, path: path,
            expected: expected, found: "end of file")
    }

    private static func describe(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

}
