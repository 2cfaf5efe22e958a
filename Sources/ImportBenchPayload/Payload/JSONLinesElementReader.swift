import Foundation

/// Where a JSON scenario's elements come from: one array of a document (`JSONArrayElementReader`),
/// or the lines of a JSON Lines file (`JSONLinesElementReader`).
package protocol JSONElementSource: AnyObject {
    var path: String { get }
    var limits: PayloadLimits { get }
    /// The next element, or nil after the last.
    func next() throws -> JSONArrayElementReader.Element?
    /// How errors name element `index`: `channels[3]`, or `line 4`.
    func elementPath(_ index: Int) -> String
    /// `error`, found in `element`, located as this source's readers say where they are: JSON Lines
    /// by line and column.
    func located(_ error: PayloadError, in element: JSONArrayElement) -> PayloadError
    /// The member name of the element last handed out, where the collection is an object keyed by
    /// it (`{"138586341": {...}}`); nil for an array's elements and lines.
    var currentMemberName: String? { get }
    /// The refusal of a payload that holds no element (blank lines only, `[]`, a gzip of nothing),
    /// located where its elements ended: asked once `next()` returned nil without handing out any.
    /// A payload of nothing is nothing to benchmark: every strategy would be "valid" over 0 records.
    func noElement() -> PayloadError
}

extension JSONLinesElementReader {
    /// Lines have no names.
    package var currentMemberName: String? { nil }
}

extension JSONArrayElementReader: JSONElementSource {
    /// As it is: the byte offset and record path say where.
    package func located(_ error: PayloadError, in element: JSONArrayElement) -> PayloadError { error }
}

/// Opens a payload's elements by its name: JSON Lines for `.jsonl` and `.ndjson` (gzipped or not),
/// else the array at `arrayPath` of one document.
package enum JSONElements {
    /// `acceptsObject`: the collection at `arrayPath` may be an object whose members are the elements.
    /// `lines`: the payload is JSON Lines whatever its name (a mapping can say so).
    package static func open(
        path: String, arrayPath: [String], chunkSize: Int = 1 << 20, limits: PayloadLimits = .default, hasher: PayloadHasher? = nil,
        acceptsObject: Bool = false, lines: Bool = false
    ) throws -> any JSONElementSource {
        if lines || isJSONLines(path) { return try JSONLinesElementReader(path: path, chunkSize: chunkSize, limits: limits, hasher: hasher) }
        return try JSONArrayElementReader(
            path: path, arrayPath: arrayPath, chunkSize: chunkSize, limits: limits, hasher: hasher, acceptsObject: acceptsObject)
    }

    /// Whether the name says JSON Lines: `.jsonl`, `.ndjson`, either followed by `.gz`.
    package static func isJSONLines(_ path: String) -> Bool {
        var name = URL(fileURLWithPath: path).lastPathComponent.lowercased()
        if name.hasSuffix(".gz") { name.removeLast(3) }
        return name.hasSuffix(".jsonl") || name.hasSuffix(".ndjson")
    }
}

/// The values of a JSON Lines file, one per line, streaming: each non-blank line is one element,
/// named by its line in errors. A line that holds one object or array is parsed where it lies in
/// the read buffer (the array reader's fast path); anything else is handed over delimited, for the
/// checked parse to read or refuse. Memory is bounded by the longest line
/// (`longestJSONElementBytes`). A document spread over lines (a pretty-printed `.json` given a
/// `.jsonl` name) is refused at its first line, saying so.
package final class JSONLinesElementReader: JSONElementSource {
    package let path: String
    package let limits: PayloadLimits
    private let input: PayloadInput
    private let hasher: PayloadHasher?
    private let chunkSize: Int
    /// The bytes read and not yet consumed: `storage[start..<count]`, `storage[0]` at file offset
    /// `bufferOffset`. A tape parsed in place borrows them until the next call.
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0
    private var start = 0
    private var bufferOffset = 0
    private var endOfFile = false
    /// The line the next element starts on, from 1.
    private var line = 1
    private var sawValue = false
    private let workspace = JSONTapeWorkspace()

    package init(path: String, chunkSize: Int = 1 << 20, limits: PayloadLimits = .default, hasher: PayloadHasher? = nil) throws {
        self.path = path
        self.limits = limits
        self.hasher = hasher
        self.chunkSize = max(chunkSize, 1)
        capacity = max(self.chunkSize * 2, 64)
        storage = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        do {
            input = try PayloadInput(path: path, expected: .readable(.jsonLinesFile))
            // A UTF-8 byte order mark before the first line is not part of it (but is of the file's hash).
            if try input.peek(3) == [0xEF, 0xBB, 0xBF] {
                input.skip(3)
                [UInt8]([0xEF, 0xBB, 0xBF]).withUnsafeBytes { hasher?.update($0) }
                bufferOffset = 3
            }
        } catch {
            storage.deallocate()
            throw error
        }
    }

    deinit {
        storage.deallocate()
    }

    /// `line 4`: the element's line.
    package func elementPath(_ index: Int) -> String { "line \(index + 1)" }

    /// With the element's line and the column of the error's byte (the element starts its line);
    /// the path inside the line, if any, stays (`user.id`).
    package func located(_ error: PayloadError, in element: JSONArrayElement) -> PayloadError {
        let prefix = elementPath(element.index)
        var inner = error.path.map { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : $0 }
        if inner?.first == "." { inner?.removeFirst() }
        var located = PayloadError(
            file: error.file, byteOffset: error.byteOffset, path: inner?.isEmpty == false ? inner : nil, expected: error.expected,
            found: error.found)
        located.line = element.index + 1
        located.column = error.byteOffset.map { $0 - element.byteOffset + 1 }
        return located
    }

    /// The file held blank lines at most: refused at its end, as an empty `.json` is.
    package func noElement() -> PayloadError {
        let end = bufferOffset + count
        return PayloadError(
            file: path, byteOffset: end, path: nil, expected: .atLeastOne(.jsonLine),
            found: PayloadError.emptyFile(bytes: end, blank: "only blank lines", compressed: input.isCompressed))
    }

    package func next() throws -> JSONArrayElementReader.Element? {
        while let (lineStart, lineEnd, number) = try nextLine() {
            let bytes = UnsafeBufferPointer(start: storage + lineStart, count: lineEnd - lineStart)
            guard let first = bytes.firstIndex(where: { !Self.isSpace($0) }) else { continue }
            let last = bytes.lastIndex(where: { !Self.isSpace($0) }) ?? first
            let offset = bufferOffset + lineStart
            if !sawValue, first == last, bytes[first] == UInt8(ascii: "{") || bytes[first] == UInt8(ascii: "[") {
                var error = PayloadError(
                    file: path, byteOffset: offset + first, path: nil, expected: .wholeValuePerLine,
                    found: "'\(Character(UnicodeScalar(bytes[first])))' alone, which opens a document spread over lines: a pretty-printed JSON file, "
                        + "not JSON Lines; give it a .json name")
                (error.line, error.column) = (number, first + 1)
                throw error
            }
            sawValue = true
            if first == 0,
                case .parsed(let tape, let length) = JSONTape.parsingPrefix(
                    of: UnsafeBufferPointer(rebasing: bytes[...last]), baseOffset: offset, file: path,
                    rootPrefix: elementPath(number - 1), workspace: workspace, limits: limits),
                length == last + 1
            {
                return .parsed(tape, index: number - 1)
            }
            // From the line's start, blanks included: a column counts from there.
            return .delimited(JSONArrayElement(index: number - 1, byteOffset: offset, bytes: Data(UnsafeBufferPointer(rebasing: bytes[...last]))))
        }
        return nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }

    /// The next line's bounds in `storage`, without its line break, and its number; nil at the end.
    private func nextLine() throws -> (Int, Int, Int)? {
        var searched = start
        while true {
            if searched < count, let newline = memchr(storage + searched, 0x0A, count - searched) {
                let end = storage.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                // Every line is held to the limit, wherever the reads happen to split the file.
                guard end - start <= limits.longestJSONElementBytes else { throw lineTooLong() }
                let lineStart = start
                start = end + 1
                defer { line += 1 }
                return (lineStart, end, line)
            }
            searched = count
            guard count - start <= limits.longestJSONElementBytes else { throw lineTooLong() }
            if endOfFile {
                guard start < count else { return nil }
                let lineStart = start
                start = count
                defer { line += 1 }
                return (lineStart, count, line)
            }
            let kept = start
            try refill()
            searched -= kept - start
        }
    }

    /// The line starting at `start` is longer than the limit.
    private func lineTooLong() -> PayloadError {
        var error = PayloadError(
            file: path, byteOffset: bufferOffset + start, path: nil,
            expected: .limit(.jsonLine, limits.longestJSONElementBytes),
            found: "a longer one")
        (error.line, error.column) = (line, 1)
        return error
    }

    /// Drops the consumed bytes (a tape handed out before is done with by now), then reads a chunk.
    private func refill() throws {
        if start > 0 {
            let kept = count - start
            if kept > 0 { memmove(storage, storage + start, kept) }
            bufferOffset += start
            count = kept
            start = 0
        }
        let received = try input.read(
            appendingTo: &storage, capacity: &capacity, count: &count, chunk: chunkSize, offset: bufferOffset, hasher: hasher)
        if received == 0 { endOfFile = true }
    }
}
