import Foundation

/// Writes compact JSON text to a file through a large buffer, so generators can stream payloads of
/// any size without building a document in memory. Output depends only on the calls made: no
/// whitespace, no key reordering, integers in plain decimal.
///
/// Commas and colons are placed automatically. I/O errors are sticky: the first one stops further
/// output and is thrown by `close()`, which keeps call sites free of `try` on every value.
public final class JSONTextWriter {
    public let path: String
    /// Bytes handed to the file so far, including those still buffered.
    public private(set) var bytesWritten = 0

    private let file: UnsafeMutablePointer<FILE>
    private let buffer: UnsafeMutablePointer<UInt8>
    private let bufferCapacity: Int
    private var buffered = 0
    private var failure: PayloadError?
    private var isClosed = false

    /// One entry per open container: whether it already holds an element (so the next needs a comma).
    private var containerHasElements: [Bool] = []
    /// A key was just written, so the next value follows its colon without a comma.
    private var valueFollowsKey = false

    /// Creates or truncates the file at `path`.
    public init(path: String, bufferCapacity: Int = 1 << 20) throws {
        guard let file = fopen(path, "wb") else {
            throw PayloadError(
                file: path, byteOffset: nil, path: nil, expected: "a writable file", found: Self.systemError())
        }
        self.path = path
        self.file = file
        self.bufferCapacity = max(bufferCapacity, 64)
        buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: self.bufferCapacity)
        containerHasElements.reserveCapacity(16)
    }

    deinit {
        if !isClosed { fclose(file) }
        buffer.deallocate()
    }

    // MARK: Structure

    public func beginObject() {
        beforeValue()
        appendByte(UInt8(ascii: "{"))
        containerHasElements.append(false)
    }

    public func endObject() {
        _ = containerHasElements.popLast()
        appendByte(UInt8(ascii: "}"))
    }

    public func beginArray() {
        beforeValue()
        appendByte(UInt8(ascii: "["))
        containerHasElements.append(false)
    }

    public func endArray() {
        _ = containerHasElements.popLast()
        appendByte(UInt8(ascii: "]"))
    }

    /// Writes an object key; the next call writes its value.
    public func key(_ name: String) {
        if let last = containerHasElements.indices.last {
            if containerHasElements[last] { appendByte(UInt8(ascii: ",")) }
            containerHasElements[last] = true
        }
        appendQuoted(name)
        appendByte(UInt8(ascii: ":"))
        valueFollowsKey = true
    }

    // MARK: Values

    public func string(_ value: String) {
        beforeValue()
        appendQuoted(value)
    }

    public func integer(_ value: Int) {
        beforeValue()
        appendDecimal(value)
    }

    /// A fixed-point number, `units / 10^fractionDigits`: exact and identical on every platform,
    /// which printing a Double is not guaranteed to be.
    public func decimal(_ units: Int, fractionDigits: Int) {
        beforeValue()
        guard fractionDigits > 0 else {
            appendDecimal(units)
            return
        }
        var divisor = 1
        for _ in 0..<fractionDigits { divisor *= 10 }
        if units < 0 { appendByte(UInt8(ascii: "-")) }
        let magnitude = Int(units.magnitude)
        appendDecimal(magnitude / divisor)
        appendByte(UInt8(ascii: "."))
        let fraction = magnitude % divisor
        var padding = divisor / 10
        while padding > 1 && fraction < padding {
            appendByte(UInt8(ascii: "0"))
            padding /= 10
        }
        appendDecimal(fraction)
    }

    public func bool(_ value: Bool) {
        beforeValue()
        appendASCII(value ? "true" : "false")
    }

    public func null() {
        beforeValue()
        appendASCII("null")
    }

    // MARK: Key-value shorthands

    public func field(_ name: String, _ value: String) {
        key(name)
        string(value)
    }

    public func field(_ name: String, _ value: Int) {
        key(name)
        integer(value)
    }

    public func field(_ name: String, _ value: Bool) {
        key(name)
        bool(value)
    }

    /// Flushes and closes the file; throws the first I/O error met since opening.
    public func close() throws {
        guard !isClosed else { return }
        flush()
        isClosed = true
        if fclose(file) != 0, failure == nil {
            failure = PayloadError(
                file: path, byteOffset: bytesWritten, path: nil, expected: "a successful close",
                found: Self.systemError())
        }
        if let failure { throw failure }
    }

    // MARK: Bytes

    private func beforeValue() {
        if valueFollowsKey {
            valueFollowsKey = false
            return
        }
        if let last = containerHasElements.indices.last {
            if containerHasElements[last] { appendByte(UInt8(ascii: ",")) }
            containerHasElements[last] = true
        }
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

    private func appendASCII(_ text: StaticString) {
        appendBytes(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private func appendDecimal(_ value: Int) {
        // Digits are produced backwards into a small stack buffer; Int.min's magnitude still fits UInt.
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 { appendByte(UInt8(ascii: "-")) }
            appendBytes(UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    private func appendQuoted(_ text: String) {
        appendByte(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { appendEscaped($0) }
        appendByte(UInt8(ascii: "\""))
    }

    /// Copies runs of plain bytes in bulk; only quote, backslash and control characters are escaped.
    private func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            appendBytes(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            appendByte(UInt8(ascii: "\\"))
            if byte < 0x20 {
                let hexDigits: StaticString = "0123456789abcdef"
                appendByte(UInt8(ascii: "u"))
                appendByte(UInt8(ascii: "0"))
                appendByte(UInt8(ascii: "0"))
                appendByte(hexDigits.utf8Start[Int(byte >> 4)])
                appendByte(hexDigits.utf8Start[Int(byte & 0x0F)])
            } else {
                appendByte(byte)
            }
            runStart = index + 1
        }
        appendBytes(UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
    }

    private func flush() {
        guard buffered > 0 else { return }
        defer { buffered = 0 }
        guard failure == nil, !isClosed else { return }
        if fwrite(buffer, 1, buffered, file) != buffered {
            failure = PayloadError(
                file: path, byteOffset: bytesWritten - buffered, path: nil, expected: "a successful write",
                found: Self.systemError())
        }
    }

    private static func systemError() -> String {
        String(cString: strerror(errno))
    }
}
