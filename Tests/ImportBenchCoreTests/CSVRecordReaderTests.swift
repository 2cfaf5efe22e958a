import Foundation
import ImportBenchCore
import ImportBenchPayload
import Testing

@Suite("CSV record reader")
struct CSVRecordReaderTests {
    /// Chunk sizes that split every token somewhere, and the default.
    static let chunkSizes = [1, 2, 3, 7, 1 << 20]

    private func write(_ bytes: [UInt8], in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("t.csv")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private struct Row: Equatable {
        var line: Int
        var offset: Int
        var fields: [String?]
    }

    /// Every row read by column name, in the order `names` gives.
    private func rows(_ path: String, names: [String], chunkSize: Int) throws -> [Row] {
        let reader = try CSVRecordReader(path: path, chunkSize: chunkSize)
        let columns = names.map { reader.column(named: $0) }
        var rows: [Row] = []
        while try reader.nextRow() {
            rows.append(Row(line: reader.line, offset: reader.rowByteOffset, fields: try columns.map { try reader.text($0) }))
        }
        return rows
    }

    @Test("quotes, commas, doubled quotes, line breaks in quotes, CRLF, BOM, blank lines, no final newline", arguments: chunkSizes)
    func trickyInput(chunkSize: Int) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let text =
            "a,b,c\r\n"  // offset 3 (after the BOM)
            + "1,\"x, y\",\"he said \"\"hi\"\"\"\r\n"  // 10
            + "2,\"multi\nline\",\r\n"  // 37, spans lines 3 and 4
            + "\n\r\n"  // blank lines 5 and 6
            + "3,Straße,end"  // 57, no final newline
        let path = try write([0xEF, 0xBB, 0xBF] + Array(text.utf8), in: directory)
        let read = try rows(path, names: ["a", "b", "c"], chunkSize: chunkSize)
        #expect(
            read == [
                Row(line: 2, offset: 10, fields: ["1", "x, y", "he said \"hi\""]),
                Row(line: 3, offset: 37, fields: ["2", "multi\nline", nil]),
                Row(line: 7, offset: 57, fields: ["3", "Straße", "end"]),
            ])
    }

    @Test("LF endings, trailing blank lines, quoted empty field, columns read by name in any order", arguments: chunkSizes)
    func trailingBlankLines(chunkSize: Int) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = try write(Array("x,y,extra\n\"\",2,z\n5,,\n\n\n".utf8), in: directory)
        let read = try rows(path, names: ["y", "x", "absent"], chunkSize: chunkSize)
        #expect(read == [Row(line: 2, offset: 10, fields: ["2", nil, nil]), Row(line: 3, offset: 17, fields: [nil, "5", nil])])
    }

    @Test("the same table with its columns in another order reads the same by name", arguments: [1, 1 << 20])
    func reorderedColumns(chunkSize: Int) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let first = directory.path("first.csv")
        let second = directory.path("second.csv")
        try Data("id,name,lat\n1,\"A, b\",47.66\n2,C,-122.3\n".utf8).write(to: URL(fileURLWithPath: first))
        try Data("lat,ignored,id,name\r\n47.66,q,1,\"A, b\"\r\n-122.3,r,2,C\r\n".utf8).write(to: URL(fileURLWithPath: second))
        let names = ["id", "name", "lat"]
        #expect(try rows(first, names: names, chunkSize: chunkSize).map(\.fields) == rows(second, names: names, chunkSize: chunkSize).map(\.fields))
    }

    @Test(
        "numbers: integers and reals as GTFS writes them",
        arguments: [
            ("3", Int64?(3), Double?(3)), ("47.66", nil, 47.66), ("-122.3", nil, -122.3), ("0.0", nil, 0),
            ("-122.394992", nil, -122.394992), (" 7 ", 7, 7), ("+2", 2, 2), ("1e3", nil, 1000), ("0.1", nil, 0.1),
            ("12345678901234567890.5", nil, 12345678901234567890.5), ("-9223372036854775808", Int64.min, -9_223_372_036_854_775_808),
        ])
    func numbers(text: String, integer: Int64?, real: Double?) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = try write(Array("n\n\(text)\n".utf8), in: directory)
        let reader = try CSVRecordReader(path: path)
        #expect(try reader.nextRow())
        let column = try reader.requiredColumn("n")
        #expect(try reader.real(column) == real)
        if let integer {
            #expect(try reader.integer(column) == integer)
        } else {
            #expect(throws: PayloadError.self) { try reader.integer(column) }
        }
    }

    @Test("non-numbers are refused naming file, line, column and text", arguments: ["abc", "1.2.3", "nan", "inf", "-", "9223372036854775808"])
    func badNumbers(text: String) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = try write(Array("id,n\n1,\(text)\n".utf8), in: directory)
        let reader = try CSVRecordReader(path: path)
        #expect(try reader.nextRow())
        let column = try reader.requiredColumn("n")
        let error = #expect(throws: PayloadError.self) { try reader.integer(column) }
        #expect(error == PayloadError(file: path, byteOffset: 7, path: "t.csv line 2, column n", expected: .kind(.integer), found: "'\(text)'"))
        if text != "9223372036854775808" { #expect(throws: PayloadError.self) { try reader.real(column) } }
    }

    /// A malformed file, where reading must stop, and what it must say.
    struct Malformed: CustomTestStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]
        let offset: Int
        let path: String
        let expected: PayloadExpectation
        let found: String
        var testDescription: String { name }
    }

    static let malformed: [Malformed] = [
        Malformed(
            name: "too few fields", bytes: Array("a,b,c\n1,2,3\n1,2\n".utf8), offset: 15, path: "t.csv line 3",
            expected: .fields(3), found: "2 fields and the end of the row"),
        Malformed(
            name: "too few fields at the end of the file", bytes: Array("a,b\n1".utf8), offset: 5, path: "t.csv line 2",
            expected: .fields(2), found: "1 field and the end of the row"),
        Malformed(
            name: "too many fields", bytes: Array("a,b\r\n1,2,3\r\n".utf8), offset: 8, path: "t.csv line 2",
            expected: .fields(2), found: "3 fields"),
        Malformed(
            name: "too many fields, one quoted with a comma", bytes: Array("a,b\n1,2\n\"x,y\",2,\"3,4\",5\n".utf8), offset: 15,
            path: "t.csv line 3", expected: .fields(2), found: "4 fields"),
        Malformed(
            name: "unterminated quote", bytes: Array("a,b\n1,\"open\n2,3\n".utf8), offset: 6, path: "t.csv line 2",
            expected: .closingQuote, found: "the end of the file"),
        Malformed(
            name: "text after a closing quote", bytes: Array("a,b\n\"x\"y,2\n".utf8), offset: 7, path: "t.csv line 2",
            expected: .separatorAfterClosingQuote, found: "'y'"),
        Malformed(
            name: "invalid UTF-8", bytes: Array("a,b\n1,ok".utf8) + [0xFF] + Array("\n".utf8), offset: 8,
            path: "t.csv line 2, column b", expected: .validUTF8(csvText: true), found: "byte 0xFF"),
        Malformed(
            name: "invalid UTF-8 after a doubled quote", bytes: Array("a,b\n1,\"q\"\"".utf8) + [0xC3, 0x28] + Array("\"\n".utf8),
            offset: 10, path: "t.csv line 2, column b", expected: .validUTF8(csvText: true), found: "byte 0xC3"),
        Malformed(
            name: "overlong UTF-8", bytes: Array("a,b\n1,".utf8) + [0xC0, 0xAF] + Array("\n".utf8), offset: 6,
            path: "t.csv line 2, column b", expected: .validUTF8(csvText: true), found: "byte 0xC0"),
        Malformed(
            name: "missing required column", bytes: [0xEF, 0xBB, 0xBF] + Array("a,c\n1,2\n".utf8), offset: 3, path: "t.csv line 1",
            expected: .column("b"), found: "only the columns a, c: add a b column to t.csv"),
        Malformed(
            name: "empty required field", bytes: Array("a,b\n1,\n".utf8), offset: 6, path: "t.csv line 2, column b",
            expected: .nonEmpty("b"), found: "an empty field"),
        Malformed(
            name: "an empty file", bytes: [], offset: 0, path: "t.csv line 1",
            expected: .headerLine, found: "an empty file"),
        Malformed(
            name: "a header naming a column twice", bytes: Array("a,b,a\n".utf8), offset: 4, path: "t.csv line 1, column #3",
            expected: .distinctColumnNames, found: "'a' twice"),
    ]

    @Test("malformed files throw PayloadError at the exact byte", arguments: malformed, [1, 2, 1 << 20])
    func malformedFiles(_ malformed: Malformed, chunkSize: Int) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = try write(malformed.bytes, in: directory)
        let error = #expect(throws: PayloadError.self) {
            let reader = try CSVRecordReader(path: path, chunkSize: chunkSize)
            let b = try reader.requiredColumn("b")
            while try reader.nextRow() { _ = try reader.requiredText(b) }
        }
        #expect(
            error
                == PayloadError(
                    file: path, byteOffset: malformed.offset, path: malformed.path, expected: malformed.expected, found: malformed.found))
    }

    @Test("readRow reports a ragged row and reads on from the next one", arguments: chunkSizes)
    func raggedRowsReadOn(chunkSize: Int) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = try write(Array("a,b\r\n1,2\r\n3\r\n4,\"5,\n\",6,7\r\n\"8\n\",9\r\n\r\n10,11".utf8), in: directory)
        let reader = try CSVRecordReader(path: path, chunkSize: chunkSize)
        var outcomes: [String] = []
        while true {
            switch try reader.readRow() {
            case .success(false):
                outcomes.append("end")
            case .success(true):
                outcomes.append("line \(reader.line): \(try reader.text(0) ?? "-")|\(try reader.text(1) ?? "-")")
                continue
            case .failure(let error):
                outcomes.append("\(error.path ?? "") at \(error.byteOffset ?? -1): \(error.found)")
                continue
            }
            break
        }
        #expect(
            outcomes == [
                "line 2: 1|2", "t.csv line 3 at 11: 1 field and the end of the row", "t.csv line 4 at 20: 4 fields",
                "line 6: 8\n|9", "line 9: 10|11", "end",
            ])
    }

    @Test("an error is final: the next call repeats it instead of reading on")
    func errorsAreFinal() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = try write(Array("a,b\n1\n2,3\n".utf8), in: directory)
        let reader = try CSVRecordReader(path: path, chunkSize: 2)
        let first = #expect(throws: PayloadError.self) { try reader.nextRow() }
        let second = #expect(throws: PayloadError.self) { try reader.nextRow() }
        #expect(first == second)
    }
}
