import Foundation

/// Writes compact JSON text to a file through a large buffer, so generators can stream payloads of
/// any size without building a document in memory. Output depends only on the calls made: no
/// whitespace, no key reordering, integers in plain decimal.
///
/// Commas and colons are placed automatically. I/O errors are sticky: the first one stops further
/// output and is thrown by `close()`, which keeps call sites free of `try` on every value.
///
/// Given a JSON Lines path (`.jsonl`, `.ndjson`, either with `.gz`), it writes the elements of the
/// array the readers take (`elements`) one per line, and nothing around them: a generator writes
/// one document either way.
package final class JSONTextWriter {
    private let output: BufferedFileOutput
    /// The member names leading to the elements array, when writing JSON Lines; nil otherwise.
    private let linesOf: [String]?
    /// The key each open container was opened under (nil at the root and in arrays).
    private var openedUnder: [String?] = []
    private var pendingKey: String?
    /// While the elements array is open in JSON Lines mode: its depth (open containers); -1 otherwise.
    private var elementsDepth = -1
    private var wroteLine = false
    package var path: String { output.path }
    /// Bytes handed to the file so far, including those still buffered.
    package var bytesWritten: Int { output.bytesWritten }

    /// One entry per open container: whether it already holds an element (so the next needs a comma).
    private var containerHasElements: [Bool] = []
    /// A key was just written, so the next value follows its colon without a comma.
    private var valueFollowsKey = false

    /// Creates or truncates the file at `path`. `elements` is the path of member names to the array
    /// of elements (`[]` for a top-level array), which a JSON Lines path writes one per line.
    package init(path: String, elements: [String] = [], bufferCapacity: Int = 1 << 20) throws {
        output = try BufferedFileOutput(path: path, bufferCapacity: bufferCapacity)
        linesOf = JSONElements.isJSONLines(path) ? elements : nil
        containerHasElements.reserveCapacity(16)
    }

    /// Where bytes go: nowhere outside the elements when writing JSON Lines.
    private var out: BufferedFileOutput? {
        guard linesOf != nil else { return output }
        return elementsDepth >= 0 && containerHasElements.count >= elementsDepth ? output : nil
    }

    /// Notes the container just opened; in JSON Lines mode, finds the elements array.
    private func opened(isArray: Bool) {
        openedUnder.append(pendingKey)
        pendingKey = nil
        guard let linesOf, elementsDepth < 0, isArray, openedUnder.count == linesOf.count + 1 else { return }
        if openedUnder.dropFirst().map({ $0 ?? "" }) == linesOf, openedUnder[0] == nil { elementsDepth = openedUnder.count }
    }

    private func closed() {
        if openedUnder.count == elementsDepth { elementsDepth = -1 }
        _ = openedUnder.popLast()
    }

    // MARK: Structure

    package func beginObject() {
        beforeValue()
        out?.append(UInt8(ascii: "{"))
        containerHasElements.append(false)
        opened(isArray: false)
    }

    package func endObject() {
        closed()
        _ = containerHasElements.popLast()
        out?.append(UInt8(ascii: "}"))
    }

    package func beginArray() {
        beforeValue()
        out?.append(UInt8(ascii: "["))
        containerHasElements.append(false)
        opened(isArray: true)
    }

    package func endArray() {
        let endsElements = openedUnder.count == elementsDepth
        closed()
        _ = containerHasElements.popLast()
        if !endsElements { out?.append(UInt8(ascii: "]")) }
    }

    /// Writes an object key; the next call writes its value.
    package func key(_ name: String) {
        if let last = containerHasElements.indices.last {
            if containerHasElements[last] { out?.append(UInt8(ascii: ",")) }
            containerHasElements[last] = true
        }
        appendQuoted(name)
        out?.append(UInt8(ascii: ":"))
        valueFollowsKey = true
        pendingKey = name
    }

    // MARK: Values

    package func string(_ value: String) {
        beforeValue()
        appendQuoted(value)
    }

    package func integer(_ value: Int) {
        beforeValue()
        out?.appendDecimal(value)
    }

    /// A fixed-point number, `units / 10^fractionDigits`: exact and identical on every platform,
    /// which printing a Double is not guaranteed to be.
    package func decimal(_ units: Int, fractionDigits: Int) {
        beforeValue()
        out?.appendFixedPoint(units, fractionDigits: fractionDigits)
    }

    package func bool(_ value: Bool) {
        beforeValue()
        out?.append(value ? "true" : "false")
    }

    package func null() {
        beforeValue()
        out?.append("null")
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
        if wroteLine { output.append(UInt8(ascii: "\n")) }
        try output.close()
    }

    // MARK: Bytes

    private func beforeValue() {
        if valueFollowsKey {
            valueFollowsKey = false
            return
        }
        pendingKey = nil
        if let last = containerHasElements.indices.last {
            if containerHasElements.count == elementsDepth {
                // An element of a JSON Lines file: on a line of its own.
                if containerHasElements[last] { output.append(UInt8(ascii: "\n")) }
                wroteLine = true
            } else if containerHasElements[last] {
                out?.append(UInt8(ascii: ","))
            }
            containerHasElements[last] = true
        }
    }

    private func appendQuoted(_ text: String) {
        out?.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { appendEscaped($0) }
        out?.append(UInt8(ascii: "\""))
    }

    /// Copies runs of plain bytes in bulk; only quote, backslash and control characters are escaped.
    private func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            out?.append(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            out?.append(UInt8(ascii: "\\"))
            if byte < 0x20 {
                let hexDigits: StaticString = "0123456789abcdef"
                out?.append(UInt8(ascii: "u"))
                out?.append(UInt8(ascii: "0"))
                out?.append(UInt8(ascii: "0"))
                out?.append(hexDigits.utf8Start[Int(byte >> 4)])
                out?.append(hexDigits.utf8Start[Int(byte & 0x0F)])
            } else {
                out?.append(byte)
            }
            runStart = index + 1
        }
        out?.append(UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
    }
}
