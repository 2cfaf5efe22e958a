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
    package static func open(
        path: String, arrayPath: [String], chunkSize: Int = 1 << 20, limits: PayloadLimits = .default, hasher: PayloadHasher? = nil,
        acceptsObject: Bool = false
    ) throws -> any JSONElementSource {
        if isJSONLines(path) { return try JSONLinesElementReader(path: path, chunkSize: chunkSize, limits: limits, hasher: hasher) }
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
/// handed over delimited for the caller to parse, named by its line in errors. Memory is bounded
/// by the longest line (`longestJSONElementBytes`). A document spread over lines (a pretty-printed
/// `.json` given a `.jsonl` name) is refused at its first line, saying so.
package final class JSONLinesElementReader: JSONElementSource {
    package let path: String
    package let limits: PayloadLimits
    private let input: PayloadInput
    private let hasher: PayloadHasher?
    private let chunkSize: Int
    private var buffer: [UInt8] = []
    /// One read's bytes, reused from read to read.
    private let chunk: UnsafeMutablePointer<UInt8>
    /// Bytes of `buffer` before `start` are consumed; `buffer[0]` is at file offset `bufferOffset`.
    private var start = 0
    private var bufferOffset = 0
    private var endOfFile = false
    /// The line the next element starts on, from 1.
    private var line = 1
    private var sawValue = false

    package init(path: String, chunkSize: Int = 1 << 20, limits: PayloadLimits = .default, hasher: PayloadHasher? = nil) throws {
        self.path = path
        self.limits = limits
        self.hasher = hasher
        self.chunkSize = max(chunkSize, 1)
        chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: self.chunkSize)
        do {
            input = try PayloadInput(path: path, expected: "a readable JSON Lines file")
        } catch {
            chunk.deallocate()
            throw error
        }
        // A UTF-8 byte order mark before the first line is not part of it.
        if try input.peek(3) == [0xEF, 0xBB, 0xBF] {
            input.skip(3)
            [UInt8]([0xEF, 0xBB, 0xBF]).withUnsafeBytes { hasher?.update($0) }
            bufferOffset = 3
        }
    }

    deinit { chunk.deallocate() }

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

    package func next() throws -> JSONArrayElementReader.Element? {
        while let (bytes, offset, number) = try nextLine() {
            guard let first = bytes.firstIndex(where: { !Self.isSpace($0) }) else { continue }
            let last = bytes.lastIndex(where: { !Self.isSpace($0) }) ?? first
            let value = Array(bytes[first...last])
            if !sawValue, value == [UInt8(ascii: "{")] || value == [UInt8(ascii: "[")] {
                var error = PayloadError(
                    file: path, byteOffset: offset + first, path: nil, expected: "one whole JSON value per line (JSON Lines)",
                    found: "'\(Character(UnicodeScalar(value[0])))' alone, which opens a document spread over lines: a pretty-printed JSON file, "
                        + "not JSON Lines; give it a .json name")
                (error.line, error.column) = (number, first + 1)
                throw error
            }
            sawValue = true
            // From the line's start, blanks included: a column counts from there.
            return .delimited(JSONArrayElement(index: number - 1, byteOffset: offset, bytes: Data(bytes[...last])))
        }
        return nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }

    /// The next line without its line break, its file offset and number; nil at the end.
    private func nextLine() throws -> ([UInt8], Int, Int)? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let line = Array(buffer[start..<newline])
                let offset = bufferOffset + start
                start = newline + 1
                defer { self.line += 1 }
                return (line, offset, self.line)
            }
            guard buffer.count - start <= limits.longestJSONElementBytes else {
                var error = PayloadError(
                    file: path, byteOffset: bufferOffset + start, path: nil,
                    expected: "a line of at most \(limits.longestJSONElementBytes) bytes (raise it with --max-json-element-bytes)",
                    found: "a longer one")
                (error.line, error.column) = (line, 1)
                throw error
            }
            if endOfFile {
                guard start < buffer.count else { return nil }
                let line = Array(buffer[start...])
                let offset = bufferOffset + start
                start = buffer.count
                defer { self.line += 1 }
                return (line, offset, self.line)
            }
            try refill()
        }
    }

    private func refill() throws {
        if start > 0 {
            buffer.removeFirst(start)
            bufferOffset += start
            start = 0
        }
        let received = try input.read(into: chunk, count: chunkSize, offset: bufferOffset + buffer.count)
        if received == 0 {
            endOfFile = true
            return
        }
        hasher?.update(UnsafeRawBufferPointer(start: chunk, count: received))
        buffer.append(contentsOf: UnsafeBufferPointer(start: chunk, count: received))
    }
}
