import Foundation
import ImportBenchCore

/// A results CSV read back, for `compare` and `report`: its header and rows, each field found by
/// its column's name, numbers checked against what `ResultColumns` declares. It is read by this
/// small reader of its own, not the payload reader, so its errors name a results file and no
/// input (an endless line, `/dev/zero`) can make it hold more than one bounded row at a time
/// beyond the rows it has returned.
package struct ResultsFile {
    /// One row: its line in the file and its fields by column name.
    package struct Row {
        package let line: Int
        let fields: [String: String]
        let file: ResultsFile.Location

        /// The field, or nil when the file has no such column; an empty field is "".
        package func text(_ name: String) -> String? { fields[name] }

        /// The field as a number; nil when the column is absent or the field empty. Anything else
        /// that is not a finite number is refused with the file, line and column.
        package func number(_ name: String) throws(ResultsInputError) -> Double? {
            guard let text = fields[name], !text.isEmpty else { return nil }
            guard let value = Double(text), value.isFinite else {
                throw file.error(line: line, column: name, expected: "a number", found: "'\(ResultsFile.excerpt(text))'")
            }
            return value
        }

        /// Every numeric column of the contract this row has a value for.
        func numbers() throws(ResultsInputError) -> [String: Double] {
            var values: [String: Double] = [:]
            for column in ResultColumns.columns where column.unit.isNumeric {
                if let value = try number(column.name) { values[column.name] = value }
            }
            return values
        }
    }

    /// Where in which file, for errors.
    struct Location {
        let path: String
        var fileName: String { URL(fileURLWithPath: path).lastPathComponent }

        func error(line: Int, column: String? = nil, expected: String, found: String) -> ResultsInputError {
            .malformed(file: path, location: "\(fileName) line \(line)" + (column.map { ", column \($0)" } ?? ""), expected: expected, found: found)
        }
    }

    /// A results row is a few hundred bytes; a longer one is not a results file.
    package static let longestRowBytes = 1 << 20
    /// An error quotes at most this much of the input.
    static let excerptCharacters = 200

    package let path: String
    package let columns: [String]
    package let rows: [Row]

    /// Reads `path` whole, each text column's field without the quote `SpreadsheetText` wrote before
    /// a would-be formula (a strategy named `=x` reads as `=x`). Throws `ResultsInputError.malformed`
    /// for a file that cannot be read, a row longer than `longestRowBytes`, text that is not UTF-8,
    /// an unterminated quote, a row with another number of fields than the header, or a header
    /// without one of `required`.
    package init(path: String, required: [String]) throws(ResultsInputError) {
        self.path = path
        let location = Location(path: path)
        var records = try Self.records(at: location)
        guard !records.isEmpty else {
            throw location.error(line: 1, expected: "a results CSV header", found: "an empty file")
        }
        let header = records.removeFirst()
        columns = header.fields
        let missing = required.filter { !header.fields.contains($0) }
        guard missing.isEmpty else {
            throw location.error(
                line: 1, expected: "a bench results CSV with the columns \(required.joined(separator: ", "))",
                found: "no column named \(missing.joined(separator: ", "))")
        }
        // The text columns bench writes neutralised for spreadsheets, read as they were before it.
        let textColumns = Set(ResultColumns.columns.filter { $0.unit == .text }.map(\.name))
        var rows: [Row] = []
        for record in records {
            guard record.fields.count == header.fields.count else {
                throw location.error(
                    line: record.line, expected: "\(header.fields.count) fields, as the header has", found: "\(record.fields.count)")
            }
            let fields = zip(header.fields, record.fields).map { name, field in
                (name, textColumns.contains(name) ? SpreadsheetText.restored(field) : field)
            }
            rows.append(Row(line: record.line, fields: Dictionary(fields, uniquingKeysWith: { first, _ in first }), file: location))
        }
        self.rows = rows
    }

    private struct Record {
        let line: Int
        let fields: [String]
    }

    /// RFC 4180 records (CRLF or LF; quoted fields may hold commas, quotes and line breaks), read a
    /// chunk at a time; a blank line is skipped.
    private static func records(at location: Location) throws(ResultsInputError) -> [Record] {
        guard let handle = FileHandle(forReadingAtPath: location.path) else {
            throw location.error(line: 1, expected: "a readable results CSV", found: "no such file, or no permission to read it")
        }
        defer { try? handle.close() }
        var parser = RecordParser(location: location)
        while true {
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: 1 << 16) ?? Data()
            } catch {
                throw location.error(line: parser.line, expected: "a readable results CSV", found: error.localizedDescription)
            }
            if chunk.isEmpty { break }
            for byte in chunk { try parser.take(byte) }
        }
        return try parser.finish()
    }

    /// The byte-at-a-time state of reading records.
    private struct RecordParser {
        let location: Location
        var records: [Record] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var rowBytes = 0
        var quoted = false
        /// A quote just ended a quoted stretch: a second one is a literal quote.
        var quoteClosed = false
        var line = 1
        var recordLine = 1

        mutating func take(_ byte: UInt8) throws(ResultsInputError) {
            rowBytes += 1
            guard rowBytes <= ResultsFile.longestRowBytes else {
                throw location.error(line: recordLine, expected: "a row of at most \(ResultsFile.longestRowBytes) bytes", found: "a longer one")
            }
            if byte == UInt8(ascii: "\n") { line += 1 }
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    quoted = false
                    quoteClosed = true
                } else {
                    field.append(byte)
                }
                return
            }
            let afterQuote = quoteClosed
            quoteClosed = false
            switch byte {
            case UInt8(ascii: "\""):
                if afterQuote { field.append(byte) }
                quoted = true
            case UInt8(ascii: ","):
                try endField()
            case UInt8(ascii: "\n"):
                try endRecord()
            case UInt8(ascii: "\r"):
                break
            default:
                field.append(byte)
            }
        }

        mutating func endField() throws(ResultsInputError) {
            guard let text = String(validating: field, as: UTF8.self) else {
                throw location.error(line: recordLine, expected: "UTF-8 text", found: "bytes that are not")
            }
            fields.append(text)
            field.removeAll(keepingCapacity: true)
        }

        mutating func endRecord() throws(ResultsInputError) {
            try endField()
            if !(fields.count == 1 && fields[0].isEmpty) { records.append(Record(line: recordLine, fields: fields)) }
            fields.removeAll()
            rowBytes = 0
            recordLine = line
        }

        mutating func finish() throws(ResultsInputError) -> [Record] {
            guard !quoted else {
                throw location.error(line: recordLine, expected: "a closing quote", found: "the end of the file")
            }
            if !field.isEmpty || !fields.isEmpty { try endRecord() }
            return records
        }
    }

    /// At most `excerptCharacters` of `text`, marked when cut.
    static func excerpt(_ text: String) -> String {
        text.count <= excerptCharacters ? text : String(text.prefix(excerptCharacters)) + "..."
    }
}
