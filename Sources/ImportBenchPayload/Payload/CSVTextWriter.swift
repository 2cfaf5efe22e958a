import Foundation

/// Writes RFC 4180 CSV to a file through a large buffer, so generators stream feeds of any size.
/// Commas between fields are placed automatically; a field is quoted only when it holds a comma,
/// a quote or a line break, as GTFS producers do. Numbers are written from integers (fixed-point
/// for decimals), never by printing a Double, so the bytes are the same on every platform.
///
/// I/O errors are sticky: the first one stops further output and is thrown by `close()`.
package final class CSVTextWriter {
    private let output: BufferedFileOutput
    package var path: String { output.path }
    /// Bytes handed to the file so far, including those still buffered.
    package var bytesWritten: Int { output.bytesWritten }
    private var rowHasFields = false

    /// Creates or truncates the file at `path`.
    package init(path: String, bufferCapacity: Int = 1 << 20) throws {
        output = try BufferedFileOutput(path: path, bufferCapacity: bufferCapacity)
    }

    /// A whole row of text fields (a header).
    package func row(_ fields: [String]) {
        for field in fields { text(field) }
        endRow()
    }

    /// A text field, quoted when it must be.
    package func text(_ value: String) {
        beforeField()
        var value = value
        value.withUTF8 { utf8 in
            let needsQuotes = utf8.contains { $0 == .comma || $0 == .quote || $0 == .newline || $0 == .carriageReturn }
            guard needsQuotes else {
                output.append(utf8)
                return
            }
            output.append(.quote)
            var runStart = 0
            for index in 0..<utf8.count where utf8[index] == .quote {
                output.append(UnsafeBufferPointer(rebasing: utf8[runStart...index]))
                output.append(.quote)
                runStart = index + 1
            }
            output.append(UnsafeBufferPointer(rebasing: utf8[runStart...]))
            output.append(.quote)
        }
    }

    /// An empty field: the column's value is absent in this row.
    package func empty() {
        beforeField()
    }

    package func integer(_ value: Int) {
        beforeField()
        output.appendDecimal(value)
    }

    /// A fixed-point number, `units / 10^fractionDigits`, with every fraction digit written.
    package func decimal(_ units: Int, fractionDigits: Int) {
        beforeField()
        output.appendFixedPoint(units, fractionDigits: fractionDigits)
    }

    /// A GTFS time of day, `HH:MM:SS`; hours run past 24 for trips that end after midnight.
    package func time(secondsSinceMidnight seconds: Int) {
        beforeField()
        let hours = seconds / 3600
        if hours < 10 { output.append(.digitZero) }
        output.appendDecimal(hours)
        for part in [(seconds / 60) % 60, seconds % 60] {
            output.append(.colon)
            if part < 10 { output.append(.digitZero) }
            output.appendDecimal(part)
        }
    }

    /// Ends the row with a line break (LF, as most GTFS exports).
    package func endRow() {
        output.append(.newline)
        rowHasFields = false
    }

    /// Flushes and closes the file; throws the first I/O error met since opening.
    package func close() throws {
        try output.close()
    }

    // MARK: Bytes

    @inline(__always)
    private func beforeField() {
        if rowHasFields { output.append(.comma) }
        rowHasFields = true
    }
}
