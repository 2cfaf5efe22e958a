import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Streams an RFC 4180 CSV file row by row over fixed-size chunks, working on bytes only: a
/// 3-million-row GTFS `stop_times.txt` never becomes Characters or a file-sized String.
///
/// Accepted: quoted fields holding commas, doubled quotes and line breaks; CRLF, LF or CR line
/// ends; a UTF-8 byte order mark; a missing final line break; blank lines (skipped wherever they
/// are). A quote inside an unquoted field is kept as a literal byte, as most producers mean it.
/// Refused with `PayloadError`: a row whose field count differs from the header's, an unterminated
/// quoted field, text after a closing quote, invalid UTF-8 in a field read as text, and (through
/// `requiredColumn`) a missing column. Columns are addressed by header name, never by position.
///
/// A row of the wrong width, or with a field that does not read as asked, is still delimited: the
/// reader is at the next row and `readRow` can go on. A quote out of place is not: quoted fields may
/// hold line breaks, so where the row ends is unknown, and that error, like every error from
/// `nextRow`, is final.
package final class CSVRecordReader {
    package let path: String
    /// How record paths name the file (`stop_times.txt`).
    package let fileName: String
    /// Header names, spaces around each trimmed.
    package let columns: [String]
    /// How the file's bytes are read as text: never `.auto`, which is resolved when the file is opened.
    package let encoding: TextEncoding
    private let columnIndexByName: [String: Int]
    private let headerByteOffset: Int
    private let headerLine: Int
    /// The file's bytes, inflated when it is gzip-compressed.
    private let input: PayloadInput
    /// All scanning state in one struct: a class's stored properties pay a dynamic exclusivity
    /// check on every access, a struct's fields inside one mutating call do not.
    private var scanner: CSVRowScanner
    /// Errors are final: the position after one is meaningless, so later calls repeat it.
    private var failure: PayloadError?

    /// Opens the file and reads its header line.
    /// - Parameter chunkSize: bytes per read; small values exist for tests of chunk boundaries.
    /// - Parameter longestRowBytes: a row whose fields hold more is refused at its start, so a file
    ///   without line breaks (`/dev/zero`) cannot grow memory without bound.
    /// - Parameter hasher: fed every byte read, in order, when the caller wants the payload's hash.
    /// - Parameter encoding: how bytes are text; `.auto` reads the file once first to choose.
    package init(
        path: String, fileName: String? = nil, chunkSize: Int = 1 << 20, longestRowBytes: Int = PayloadLimits.default.longestCSVRowBytes,
        hasher: PayloadHasher? = nil, encoding: TextEncoding = .utf8
    ) throws {
        let resolved = encoding == .auto ? try TextEncoding.detect(path: path) : encoding
        let input = try PayloadInput(path: path, expected: .readable(.csvFile))
        let fileName = fileName ?? URL(fileURLWithPath: path).lastPathComponent
        self.path = path
        self.fileName = fileName
        self.encoding = resolved
        self.input = input
        scanner = CSVRowScanner(
            path: path, fileName: fileName, input: input, chunkSize: max(chunkSize, 1), longestRowBytes: max(longestRowBytes, 1),
            hasher: hasher, encoding: resolved)
        do {
            try scanner.skipByteOrderMark()
            guard case .success(true) = try scanner.readRow(expectedFields: nil) else {
                throw PayloadError(
                    file: path, byteOffset: scanner.fileOffset, path: "\(fileName) line 1",
                    expected: .headerLine, found: "an empty file")
            }
            var columns: [String] = []
            var indexByName: [String: Int] = [:]
            for index in 0..<scanner.fieldCount {
                let name = try scanner.text(index).map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
                guard indexByName[name] == nil else {
                    throw scanner.error(at: index, expected: .distinctColumnNames, found: "'\(name)' twice")
                }
                indexByName[name] = index
                columns.append(name)
                scanner.columns = columns
            }
            self.columns = columns
            columnIndexByName = indexByName
            headerByteOffset = scanner.rowByteOffset
            headerLine = scanner.line
        } catch {
            scanner.deallocate()
            throw error
        }
    }

    deinit {
        scanner.deallocate()
    }

    // MARK: Columns

    /// Index of the column named `name`, or nil when the file has no such column.
    package func column(named name: String) -> Int? { columnIndexByName[name] }

    /// Index of a column the caller cannot do without; its absence is a payload error.
    package func requiredColumn(_ name: String) throws -> Int {
        if let index = columnIndexByName[name] { return index }
        throw PayloadError(
            file: path, byteOffset: headerByteOffset, path: "\(fileName) line \(headerLine)",
            expected: .column(name),
            found: "only the columns \(columns.joined(separator: ", ")): add a \(name) column to \(fileName)")
    }

    // MARK: Rows

    /// Moves to the next row; false at the end of the file.
    package func nextRow() throws -> Bool {
        switch try readRow() {
        case .success(let hasRow):
            return hasRow
        case .failure(let error):
            failure = error
            throw error
        }
    }

    /// Moves to the next row, returning whether there was one, or, as a failure, the error of a row
    /// whose field count differs from the header's: that row was read to its end and the next call
    /// reads the row after it. Errors thrown leave the rest of the file unreadable and are final.
    package func readRow() throws -> Result<Bool, PayloadError> {
        if let failure { throw failure }
        do {
            return try scanner.readRow(expectedFields: columns.count)
        } catch let error as PayloadError {
            failure = error
            throw error
        }
    }

    /// Physical line (1-based) where the current row starts, as an editor shows it.
    package var line: Int { scanner.line }
    /// Offset of the current row's first byte in the file.
    package var rowByteOffset: Int { scanner.rowByteOffset }
    /// Fields in the current row (always the header's count once `nextRow` returned true).
    package var fieldCount: Int { scanner.fieldCount }

    /// The raw bytes of field `index` of the current row, quotes undone; valid only inside `body`.
    package func withFieldBytes<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try scanner.inPlace { try $0.withFieldBytes(index, body) }
    }

    /// Whether field `index` is empty (a missing column counts as empty).
    package func isEmpty(_ index: Int?) -> Bool { scanner.inPlace { $0.isEmpty(index) } }

    /// The field as text; nil when the column is absent or the field empty.
    package func text(_ index: Int?) throws -> String? { try scanner.inPlace { try $0.text(index) } }

    /// The field as text, which must be present and non-empty.
    package func requiredText(_ index: Int) throws -> String { try scanner.inPlace { try $0.requiredText(index) } }

    /// The field as a decimal integer (`3`, `-1`, `+7`, spaces around allowed); nil when absent or empty.
    package func integer(_ index: Int?) throws -> Int64? { try scanner.inPlace { try $0.integer(index) } }

    /// The field as a finite real (`47.66`, `-122.3`, `3`, `1e-3`); nil when absent or empty.
    package func real(_ index: Int?) throws -> Double? { try scanner.inPlace { try $0.real(index) } }

    /// A payload error about field `index` of the current row, located at the field's first byte.
    package func error(at index: Int, byteOffset: Int? = nil, expected: PayloadExpectation, found: String) -> PayloadError {
        scanner.error(at: index, byteOffset: byteOffset, expected: expected, found: found)
    }
}

/// The reader's chunk buffer, scan position and current row.
private struct CSVRowScanner {
    let path: String
    let fileName: String
    let input: PayloadInput
    let chunkSize: Int
    let longestRowBytes: Int
    let hasher: PayloadHasher?
    let encoding: TextEncoding
    let buffer: UnsafeMutablePointer<UInt8>
    /// Header names once read; error messages name columns with them.
    var columns: [String] = []
    /// Valid bytes are buffer[0..<count]; buffer[0] is at file offset `bufferFileOffset`.
    var count = 0
    var bufferFileOffset = 0
    var position = 0
    var reachedEndOfFile = false
    var nextLine = 1
    var line = 0
    var rowByteOffset = 0
    /// The current row's field contents back to back, quotes already undone: `rowLength` bytes of
    /// `rowCapacity`. Unsafe storage, so the scan loop copies each byte as it tests it.
    var rowBytes: UnsafeMutablePointer<UInt8>
    var rowCapacity = 1024
    var rowLength = 0
    /// End of each field in `rowBytes`; a field starts where the previous one ends.
    var fieldEnds: [Int] = []
    /// File offset of each field's first byte (its opening quote when quoted).
    var fieldOffsets: [Int] = []
    var fieldIsQuoted: [Bool] = []

    init(
        path: String, fileName: String, input: PayloadInput, chunkSize: Int, longestRowBytes: Int, hasher: PayloadHasher?, encoding: TextEncoding
    ) {
        self.encoding = encoding
        self.path = path
        self.fileName = fileName
        self.input = input
        self.chunkSize = chunkSize
        self.longestRowBytes = longestRowBytes
        self.hasher = hasher
        buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
        rowBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: rowCapacity)
    }

    func deallocate() {
        buffer.deallocate()
        rowBytes.deallocate()
    }

    var fieldCount: Int { fieldEnds.count }

    @inline(__always)
    var fileOffset: Int { bufferFileOffset + position }

    // MARK: Fields

    /// Runs `body` on the scanner where it lies. Only `mutating` so that the reader's call borrows
    /// its stored scanner: calling a non-mutating method through the property copies the struct,
    /// retaining and releasing its arrays, on every field read.
    @inline(__always)
    mutating func inPlace<Result>(_ body: (Self) throws -> Result) rethrows -> Result { try body(self) }

    func withFieldBytes<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        let start = index == 0 ? 0 : fieldEnds[index - 1]
        let end = fieldEnds[index]
        return try body(UnsafeBufferPointer(start: rowBytes + start, count: end - start))
    }

    func isEmpty(_ index: Int?) -> Bool {
        guard let index else { return true }
        return fieldEnds[index] == (index == 0 ? 0 : fieldEnds[index - 1])
    }

    func text(_ index: Int?) throws -> String? {
        guard let index, !isEmpty(index) else { return nil }
        if encoding != .utf8 { return withFieldBytes(index) { encoding.decode($0) } }
        return try withFieldBytes(index) { bytes in
            if let invalid = Self.firstInvalidUTF8Index(bytes) {
                throw error(
                    at: index, byteOffset: fileOffset(ofDecodedIndex: invalid, inField: index, bytes: bytes),
                    expected: .validUTF8(csvText: true),
                    found: String(format: "byte 0x%02X", bytes[invalid]))
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    func requiredText(_ index: Int) throws -> String {
        guard let value = try text(index) else {
            throw error(at: index, expected: .nonEmpty(columnName(index)), found: "an empty field")
        }
        return value
    }

    func integer(_ index: Int?) throws -> Int64? {
        guard let index, !isEmpty(index) else { return nil }
        let parsed = withFieldBytes(index) { Self.parseInteger(Self.trimmingSpaces($0)) }
        guard let parsed else { throw numberError(at: index, expected: .kind(.integer)) }
        return parsed
    }

    func real(_ index: Int?) throws -> Double? {
        guard let index, !isEmpty(index) else { return nil }
        let parsed = withFieldBytes(index) { Self.parseReal(Self.trimmingSpaces($0)) }
        guard let parsed else { throw numberError(at: index, expected: .kind(.finiteDecimal)) }
        return parsed
    }

    func error(at index: Int, byteOffset: Int? = nil, expected: PayloadExpectation, found: String) -> PayloadError {
        PayloadError(
            file: path, byteOffset: byteOffset ?? fieldOffsets[index], path: "\(fileName) line \(line), column \(columnName(index))",
            expected: expected, found: found)
    }

    /// The header's name for a column; while the header itself is read, its position.
    private func columnName(_ index: Int) -> String {
        index < columns.count ? columns[index] : "#\(index + 1)"
    }

    private func numberError(at index: Int, expected: PayloadExpectation) -> PayloadError {
        let shown = withFieldBytes(index) { String(decoding: $0.prefix(40), as: UTF8.self) }
        return error(at: index, expected: expected, found: "'\(shown)'")
    }

    /// Maps an index into a field's undone bytes back to the file: each quote in the contents was two bytes there.
    private func fileOffset(ofDecodedIndex decoded: Int, inField index: Int, bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard fieldIsQuoted[index] else { return fieldOffsets[index] + decoded }
        let doubledQuotes = bytes[..<decoded].reduce(0) { $0 + ($1 == .quote ? 1 : 0) }
        return fieldOffsets[index] + 1 + decoded + doubledQuotes
    }

    // MARK: Scanning

    /// Steps over a UTF-8 byte order mark at the start (a gzip file's inflated start included).
    mutating func skipByteOrderMark() throws {
        let head = try input.peek(3)
        guard head == [0xEF, 0xBB, 0xBF] else { return }
        input.skip(3)
        head.withUnsafeBytes { hasher?.update($0) }
        bufferFileOffset = 3
    }

    /// Makes `buffer[position]` readable; false at the end of the file.
    @inline(__always)
    private mutating func hasByte() throws -> Bool {
        if position < count { return true }
        return try refill()
    }

    private mutating func refill() throws -> Bool {
        guard !reachedEndOfFile else { return false }
        bufferFileOffset += count
        position = 0
        count = 0
        let bytesRead = try input.read(into: buffer, count: chunkSize, offset: bufferFileOffset)
        guard bytesRead > 0 else {
            reachedEndOfFile = true
            return false
        }
        hasher?.update(UnsafeRawBufferPointer(start: buffer, count: bytesRead))
        count = bytesRead
        return true
    }

    private func ioError() -> PayloadError {
        PayloadError(file: path, byteOffset: fileOffset, path: nil, expected: .readable(.csvFile), found: String(cString: strerror(errno)))
    }

    /// Consumes a line break whose first byte (CR or LF) is at `position`.
    private mutating func consumeLineBreak() throws {
        let first = buffer[position]
        position += 1
        nextLine += 1
        if first == .carriageReturn, try hasByte(), buffer[position] == .newline { position += 1 }
    }

    /// Reads one row into the field storage: whether there was one, or the error of a row whose field
    /// count differs from `expectedFields` (nil for the header), read to its end all the same.
    mutating func readRow(expectedFields: Int?) throws -> Result<Bool, PayloadError> {
        // Blank lines carry no record.
        while true {
            guard try hasByte() else { return .success(false) }
            let byte = buffer[position]
            guard byte == .newline || byte == .carriageReturn else { break }
            try consumeLineBreak()
        }
        rowLength = 0
        fieldEnds.removeAll(keepingCapacity: true)
        fieldOffsets.removeAll(keepingCapacity: true)
        fieldIsQuoted.removeAll(keepingCapacity: true)
        rowByteOffset = fileOffset
        line = nextLine
        var extraFieldComma: Int?

        while true {
            fieldOffsets.append(fileOffset)
            let endsRow: Bool
            if try hasByte(), buffer[position] == .quote {
                fieldIsQuoted.append(true)
                endsRow = try readQuotedField()
            } else {
                fieldIsQuoted.append(false)
                endsRow = try readPlainField()
            }
            fieldEnds.append(rowLength)
            if endsRow { break }
            // A comma follows: where a row with too many fields first departs from the header.
            if let expectedFields, fieldEnds.count == expectedFields { extraFieldComma = fileOffset - 1 }
        }
        var ragged: PayloadError?
        if let expectedFields, fieldEnds.count != expectedFields {
            let fields = "\(fieldEnds.count) field\(fieldEnds.count == 1 ? "" : "s")"
            ragged = PayloadError(
                file: path, byteOffset: extraFieldComma ?? fileOffset, path: "\(fileName) line \(line)",
                expected: .fields(expectedFields),
                found: extraFieldComma == nil ? "\(fields) and the end of the row" : fields)
        }
        // The row's line break, left in place until now so that a short row's offset points at it.
        if try hasByte(), buffer[position] == .newline || buffer[position] == .carriageReturn { try consumeLineBreak() }
        return ragged.map { .failure($0) } ?? .success(true)
    }

    /// Scans an unquoted field up to its comma (consumed) or the row's end (left in place).
    /// Returns whether the row ends after it.
    private mutating func readPlainField() throws -> Bool {
        while try hasByte() {
            reserveRowCapacity(count - position)
            var index = position
            var length = rowLength
            let end = count
            while index < end {
                let byte = buffer[index]
                if byte == .comma || byte == .newline || byte == .carriageReturn { break }
                rowBytes[length] = byte
                length += 1
                index += 1
            }
            rowLength = length
            position = index
            try checkRowLength()
            guard index < end else { continue }
            if buffer[index] == .comma {
                position += 1
                return false
            }
            return true
        }
        return true
    }

    /// Scans a quoted field from its opening quote through the comma after the closing quote.
    /// Returns whether the row ends after it.
    private mutating func readQuotedField() throws -> Bool {
        let openingQuote = fileOffset
        position += 1
        while true {
            guard try hasByte() else {
                throw PayloadError(
                    file: path, byteOffset: openingQuote, path: "\(fileName) line \(line)",
                    expected: .closingQuote, found: "the end of the file")
            }
            reserveRowCapacity(count - position)
            var index = position
            var length = rowLength
            let end = count
            while index < end {
                let byte = buffer[index]
                if byte == .quote { break }
                if byte == .newline { nextLine += 1 }
                rowBytes[length] = byte
                length += 1
                index += 1
            }
            rowLength = length
            position = index
            try checkRowLength()
            guard index < end else { continue }
            // A quote: doubled, it stands for itself; alone, it closes the field.
            position += 1
            if try hasByte(), buffer[position] == .quote {
                reserveRowCapacity(1)
                rowBytes[rowLength] = .quote
                rowLength += 1
                position += 1
                continue
            }
            break
        }
        guard try hasByte() else { return true }
        let next = buffer[position]
        if next == .comma {
            position += 1
            return false
        }
        if next == .newline || next == .carriageReturn { return true }
        throw PayloadError(
            file: path, byteOffset: fileOffset, path: "\(fileName) line \(line)",
            expected: .separatorAfterClosingQuote, found: Self.describe(next))
    }

    /// Refuses a row past `longestRowBytes`, located at the row's start; checked once per chunk scanned.
    @inline(__always)
    private func checkRowLength() throws {
        guard rowLength > longestRowBytes else { return }
        throw PayloadError(
            file: path, byteOffset: rowByteOffset, path: "\(fileName) line \(line)",
            expected: .limit(.csvRow, longestRowBytes),
            found: "a longer one")
    }

    /// Room for `additional` more bytes in the row storage, doubling it when short.
    @inline(__always)
    private mutating func reserveRowCapacity(_ additional: Int) {
        guard rowLength + additional > rowCapacity else { return }
        var capacity = rowCapacity * 2
        while capacity < rowLength + additional { capacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        grown.update(from: rowBytes, count: rowLength)
        rowBytes.deallocate()
        rowBytes = grown
        rowCapacity = capacity
    }

    private static func describe(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : String(format: "byte 0x%02X", byte)
    }
}

// MARK: Values

extension CSVRowScanner {

    static func trimmingSpaces(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == .space || bytes[start] == .tab { start += 1 }
        while end > start, bytes[end - 1] == .space || bytes[end - 1] == .tab { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    static func parseInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var index = 0
        var negative = false
        if index < bytes.count, bytes[index] == .minus || bytes[index] == .plus {
            negative = bytes[index] == .minus
            index += 1
        }
        guard index < bytes.count else { return nil }
        // Accumulated negatively, so Int64.min parses too.
        var value: Int64 = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte >= .digitZero, byte <= .digitNine else { return nil }
            let (shifted, overflowShift) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowAdd) = shifted.subtractingReportingOverflow(Int64(byte - .digitZero))
            guard !overflowShift, !overflowAdd else { return nil }
            value = next
            index += 1
        }
        if negative { return value }
        let (positive, overflow) = Int64(0).subtractingReportingOverflow(value)
        return overflow ? nil : positive
    }

    /// Plain decimals of up to 15 significant digits take the exact fast path (an exact integer
    /// divided by an exact power of ten rounds correctly); anything else goes through the
    /// standard library's correctly rounded parser. Non-finite values are refused.
    static func parseReal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        var negative = false
        if index < bytes.count, bytes[index] == .minus || bytes[index] == .plus {
            negative = bytes[index] == .minus
            index += 1
        }
        var mantissa: Int64 = 0
        var digits = 0
        var fractionDigits = 0
        var seenDot = false
        var plain = index < bytes.count
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= .digitZero, byte <= .digitNine {
                if mantissa > 0 || byte != .digitZero { digits += 1 }
                mantissa = mantissa &* 10 &+ Int64(byte - .digitZero)
                if seenDot { fractionDigits += 1 }
            } else if byte == .dot, !seenDot {
                seenDot = true
            } else {
                plain = false
                break
            }
            index += 1
        }
        let sawDigit = bytes.contains { $0 >= .digitZero && $0 <= .digitNine }
        if plain, sawDigit, digits <= 15, fractionDigits <= 22 {
            let magnitude = Double(mantissa) / DecimalNumber.exactPowersOfTen[fractionDigits]
            return negative ? -magnitude : magnitude
        }
        guard let parsed = Double(String(decoding: bytes, as: UTF8.self)), parsed.isFinite else { return nil }
        return parsed
    }

    /// Index of the first byte that does not belong to a well-formed UTF-8 sequence (no overlongs,
    /// no surrogates, nothing above U+10FFFF), or nil when all are valid.
    static func firstInvalidUTF8Index(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            guard let (length, secondRange) = UTF8Validator.sequence(startingWith: lead) else { return index }
            guard index + 1 < count, secondRange.contains(bytes[index + 1]) else { return index }
            for continuation in 2..<length {
                guard index + continuation < count, (0x80...0xBF).contains(bytes[index + continuation]) else { return index }
            }
            index += length
        }
        return nil
    }
}
