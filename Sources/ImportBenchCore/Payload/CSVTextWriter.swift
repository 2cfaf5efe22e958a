import Foundation

/// Writes RFC 4180 CSV to a file through a large buffer, so generators stream feeds of any size.
/// Commas between fields are placed automatically; a field is quoted only when it holds a comma,
/// a quote or a line break, as GTFS producers do. Numbers are written from integers (fixed-point
/// for decimals), never by printing a Double, so the bytes are the same on every platform.
///
/// I/O errors are sticky: the first one stops further output and is thrown by `close()`.
public final class CSVTextWriter {
    public let path: String
    /// Bytes handed to the file so far, including those still buffered.
    public private(set) var bytesWritten = 0

    private let file: UnsafeMutablePointer<FILE>
    private let buffer: UnsafeMutablePointer<UInt8>
    private let bufferCapacity: Int
    private var buffered = 0
    private var failure: PayloadError?
    private var isClosed = false
    private var rowHasFields = false

    /// Creates or truncates the file at `path`.
    public init(path: String, bufferCapacity: Int = 1 << 20) throws {
        guard let file = fopen(path, "wb") else {
            throw PayloadError(file: path, byteOffset: nil, path: nil, expected: "a writable file", found: String(cString: strerror(errno)))
        }
        self.path = path
        self.file = file
        self.bufferCapacity = max(bufferCapacity, 64)
        buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: self.bufferCapacity)
    }

    deinit {
        if !isClosed { fclose(file) }
        buffer.deallocate()
    }

    /// A whole row of text fields (a header).
    public func row(_ fields: [String]) {
        for field in fields { text(field) }
        endRow()
    }

    /// A text field, quoted when it must be.
    public func text(_ value: String) {
        beforeField()
        var value = value
        value.withUTF8 { utf8 in
            let needsQuotes = utf8.contains { $0 == .comma || $0 == .quote || $0 == .newline || $0 == .carriageReturn }
            guard needsQuotes else {
                appendBytes(utf8)
                return
            }
            appendByte(.quote)
            var runStart = 0
            for index in 0..<utf8.count where utf8[index] == .quote {
                appendBytes(UnsafeBufferPointer(rebasing: utf8[runStart...index]))
                appendByte(.quote)
                runStart = index + 1
            }
            appendBytes(UnsafeBufferPointer(rebasing: utf8[runStart...]))
            appendByte(.quote)
        }
    }

    /// An empty field: the column's value is absent in this row.
    public func empty() {
        beforeField()
    }

    public func integer(_ value: Int) {
        beforeField()
        appendDecimal(value)
    }

    /// A fixed-point number, `units / 10^fractionDigits`, with every fraction digit written.
    public func decimal(_ units: Int, fractionDigits: Int) {
        beforeField()
        guard fractionDigits > 0 else {
            appendDecimal(units)
            return
        }
        var divisor = 1
        for _ in 0..<fractionDigits { divisor *= 10 }
        if units < 0 { appendByte(.minus) }
        let magnitude = Int(units.magnitude)
        appendDecimal(magnitude / divisor)
        appendByte(.dot)
        let fraction = magnitude % divisor
        var padding = divisor / 10
        while padding > 1 && fraction < padding {
            appendByte(.digitZero)
            padding /= 10
        }
        appendDecimal(fraction)
    }

    /// A GTFS time of day, `HH:MM:SS`; hours run past 24 for trips that end after midnight.
    public func time(secondsSinceMidnight seconds: Int) {
        beforeField()
        let hours = seconds / 3600
        if hours < 10 { appendByte(.digitZero) }
        appendDecimal(hours)
        for part in [(seconds / 60) % 60, seconds % 60] {
            appendByte(.colon)
            if part < 10 { appendByte(.digitZero) }
            appendDecimal(part)
        }
    }

    /// Ends the row with a line break (LF, as most GTFS exports).
    public func endRow() {
        appendByte(.newline)
        rowHasFields = false
    }

    /// Flushes and closes the file; throws the first I/O error met since opening.
    public func close() throws {
        guard !isClosed else { return }
        flush()
        isClosed = true
        if fclose(file) != 0, failure == nil {
            failure = PayloadError(
                file: path, byteOffset: bytesWritten, path: nil, expected: "a successful close", found: String(cString: strerror(errno)))
        }
        if let failure { throw failure }
    }

    // MARK: Bytes

    @inline(__always)
    private func beforeField() {
        if rowHasFields { appendByte(.comma) }
        rowHasFields = true
    }

    @inline(__always)
    private func appendByte(_ byte: UInt8) {
        if buffered == bufferCapacity { flush() }
        buffer[buffered] = byte
        buffered += 1
        bytesWritten += 1
    }

    private func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard var source = bytes.baseAddress else { return }
        var remaining = bytes.count
        bytesWritten += remaining
        while remaining > 0 {
            if buffered == bufferCapacity { flush() }
            let run = min(remaining, bufferCapacity - buffered)
            (buffer + buffered).update(from: source, count: run)
            buffered += run
            source += run
            remaining -= run
        }
    }

    private func appendDecimal(_ value: Int) {
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 { appendByte(.minus) }
            appendBytes(UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    private func flush() {
        guard buffered > 0 else { return }
        defer { buffered = 0 }
        guard failure == nil, !isClosed else { return }
        if fwrite(buffer, 1, buffered, file) != buffered {
            failure = PayloadError(
                file: path, byteOffset: bytesWritten - buffered, path: nil, expected: "a successful write",
                found: String(cString: strerror(errno)))
        }
    }
}
