import Foundation

/// Writes compact JSON text to a file through a large buffer, so generators can stream payloads of
/// any size without building a document in memory. Output depends only on the calls made: no
/// whitespace, no key reordering, integers in plain decimal.
///
/// Commas and colons are placed automatically. I/O errors are sticky: the first one stops further
/// output and is thrown by `close()`, which keeps call sites free of `try` on every value.
package final class JSONTextWriter {
    private let output: BufferedFileOutput
    package var path: String { output.path }
    /// Bytes handed to the file so far, including those still buffered.
    package var bytesWritten: Int { output.bytesWritten }

    /// One entry per open container: whether it already holds an element (so the next needs a comma).
    private var containerHasElements: [Bool] = []
    /// A key was just written, so the next value follows its colon without a comma.
    private var valueFollowsKey = false

    /// Creates or truncates the file at `path`.
    package init(path: String, bufferCapacity: Int = 1 << 20) throws {
        output = try BufferedFileOutput(path: path, bufferCapacity: bufferCapacity)
        containerHasElements.reserveCapacity(16)
    }

    // MARK: Structure

    package func beginObject() {
        beforeValue()
        output.append(UInt8(ascii: "{"))
        containerHasElements.append(false)
    }

    package func endObject() {
        _ = containerHasElements.popLast()
        output.append(UInt8(ascii: "}"))
    }

    package func beginArray() {
        beforeValue()
        output.append(UInt8(ascii: "["))
        containerHasElements.append(false)
    }

    package func endArray() {
        _ = containerHasElements.popLast()
        output.append(UInt8(ascii: "]"))
    }

    /// Writes an object key; the next call writes its value.
    package func key(_ name: String) {
        if let last = containerHasElements.indices.last {
            if containerHasElements[last] { output.append(UInt8(ascii: ",")) }
            containerHasElements[last] = true
        }
        appendQuoted(name)
        output.append(UInt8(ascii: ":"))
        valueFollowsKey = true
    }

    // MARK: Values

    package func string(_ value: String) {
        beforeValue()
        appendQuoted(value)
    }

    package func integer(_ value: Int) {
        beforeValue()
        output.appendDecimal(value)
    }

    /// A fixed-point number, `units / 10^fractionDigits`: exact and identical on every platform,
    /// which printing a Double is not guaranteed to be.
    package func decimal(_ units: Int, fractionDigits: Int) {
        beforeValue()
        output.appendFixedPoint(units, fractionDigits: fractionDigits)
    }

    package func bool(_ value: Bool) {
        beforeValue()
        output.append(value ? "true" : "false")
    }

    package func null() {
        beforeValue()
        output.append("null")
    }

    // MARK: Key-value shorthands

    package func field(_ name: String, _ value: String) {
        key(name)
        string(value)
    }

    package func field(_ name: String, _ value: Int) {
        key(name)
        integer(value)
    }

    package func field(_ name: String, _ value: Bool) {
        key(name)
        bool(value)
    }

    /// Flushes and closes the file; throws the first I/O error met since opening.
    package func close() throws {
        try output.close()
    }

    // MARK: Bytes

    private func beforeValue() {
        if valueFollowsKey {
            valueFollowsKey = false
            return
        }
        if let last = containerHasElements.indices.last {
            if containerHasElements[last] { output.append(UInt8(ascii: ",")) }
            containerHasElements[last] = true
        }
    }

    private func appendQuoted(_ text: String) {
        output.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { appendEscaped($0) }
        output.append(UInt8(ascii: "\""))
    }

    /// Copies runs of plain bytes in bulk; only quote, backslash and control characters are escaped.
    private func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            output.append(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            output.append(UInt8(ascii: "\\"))
            if byte < 0x20 {
                let hexDigits: StaticString = "0123456789abcdef"
                output.append(UInt8(ascii: "u"))
                output.append(UInt8(ascii: "0"))
                output.append(UInt8(ascii: "0"))
                output.append(hexDigits.utf8Start[Int(byte >> 4)])
                output.append(hexDigits.utf8Start[Int(byte & 0x0F)])
            } else {
                output.append(byte)
            }
            runStart = index + 1
        }
        output.append(UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
    }
}
