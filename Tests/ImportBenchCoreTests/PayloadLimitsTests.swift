import Foundation
import Testing

@testable import ImportBenchCore
@testable import ImportBenchPayload

/// Readers hold at most one bounded row or element: an input past the bound ends with a located
/// error naming the option that raises it, after reading about the bound and no more.
@Suite("Payload limits")
struct PayloadLimitsTests {
    static func limits(element: Int = 1 << 20, string: Int = 1 << 20, number: Int = 1 << 10) -> PayloadLimits {
        PayloadLimits(longestCSVRowBytes: 1 << 20, longestJSONElementBytes: element, longestJSONStringBytes: string, longestJSONNumberBytes: number)
    }

    struct LongRow: Sendable, CustomStringConvertible {
        let text: String
        let offset: Int
        let line: Int
        var description: String { "row at byte \(offset)" }
    }

    static let longRows: [LongRow] = [
        LongRow(text: "a,b\n1,2\n" + String(repeating: "x", count: 300) + ",3\n", offset: 8, line: 3),
        LongRow(text: "a,b\n1,2\n\"" + String(repeating: "y", count: 300) + "\",3\n", offset: 8, line: 3),
        LongRow(text: String(repeating: "\0", count: 5_000), offset: 0, line: 1),
    ]

    @Test("a CSV row past the limit is refused at its start, plain or quoted, whatever the chunk size", arguments: longRows, [1, 7, 1 << 20])
    func csvRow(row: LongRow, chunkSize: Int) throws {
        let (text, offset, line) = (row.text, row.offset, row.line)
        try withTemporaryPayloadDirectory { directory in
            let file = directory.path("stops.txt")
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
            let error = #expect(throws: PayloadError.self) {
                let reader = try CSVRecordReader(path: file, chunkSize: chunkSize, longestRowBytes: 256)
                while try reader.nextRow() {}
            }
            #expect(error?.byteOffset == offset)
            #expect(error?.path == "stops.txt line \(line)")
            #expect(error?.expected == .limit(.csvRow, 256))
            #expect(String(describing: error).count < 400)
        }
        // At the limit itself the row is read.
        try withTemporaryPayloadDirectory { directory in
            let file = directory.path("ok.txt")
            try Data(("a\n" + String(repeating: "z", count: 256) + "\n").utf8).write(to: URL(fileURLWithPath: file))
            let reader = try CSVRecordReader(path: file, chunkSize: chunkSize, longestRowBytes: 256)
            #expect(try reader.nextRow())
            #expect(try reader.text(0)?.count == 256)
        }
    }

    @Test("a JSON element past the limit is refused where it starts, with its record path", arguments: [1, 5, 1 << 20])
    func jsonElement(chunkSize: Int) throws {
        try withTemporaryPayloadDirectory { directory in
            let file = directory.path("payload.json")
            let long = "{\"s\":\"" + String(repeating: "a", count: 2_000) + "\"}"
            try Data("{\"channels\":[{\"id\":1},\(long)]}".utf8).write(to: URL(fileURLWithPath: file))
            let reader = try JSONArrayElementReader(path: file, arrayPath: ["channels"], chunkSize: chunkSize, limits: Self.limits(element: 1_024))
            #expect(try reader.next()?.index == 0)
            let error = #expect(throws: PayloadError.self) { _ = try reader.next() }
            #expect(error?.byteOffset == 22)
            #expect(error?.path == "channels[1]")
            #expect(error?.expected == .limit(.jsonElement, 1_024))
        }
    }

    @Test("an element that never closes stops at the limit instead of reading the whole file")
    func unclosedElement() throws {
        try withTemporaryPayloadDirectory { directory in
            let file = directory.path("endless.json")
            let handle = try #require(
                FileHandle(
                    forWritingAtPath: {
                        _ = FileManager.default.createFile(atPath: file, contents: nil)
                        return file
                    }()))
            try handle.write(contentsOf: Data("[\"".utf8))
            try handle.truncate(atOffset: 64 << 20)  // sparse: 64 MB of NUL bytes inside an open string
            try handle.close()
            let reader = try JSONArrayElementReader(path: file, arrayPath: [], limits: Self.limits(element: 1 << 20))
            let error = #expect(throws: PayloadError.self) { _ = try reader.next() }
            #expect(error?.path == "[0]")
            #expect(error?.byteOffset == 1)
        }
    }

    @Test(
        "a string or number past its limit: the fast parse declines the element, the checked parse locates it",
        arguments: [
            (
                "{\"id\":1,\"name\":\"" + String(repeating: "n", count: 100) + "\"}", 15, "[0].name",
                PayloadExpectation.limit(.jsonString, 64), "one of 102 bytes"
            ),
            (
                "{\"" + String(repeating: "k", count: 70) + "\":1}", 1, "[0]", .limit(.jsonString, 64), "one of 72 bytes"
            ),
            (
                "{\"id\":" + String(repeating: "7", count: 40) + "}", 6, "[0].id", .limit(.jsonNumber, 32), "one of 40"
            ),
        ])
    func scalars(element: String, offset: Int, path: String, expected: PayloadExpectation, found: String) throws {
        let limits = Self.limits(string: 64, number: 32)
        try withTemporaryPayloadDirectory { directory in
            let file = directory.path("payload.json")
            try Data("[\(element)]".utf8).write(to: URL(fileURLWithPath: file))
            let reader = try JSONArrayElementReader(path: file, arrayPath: [], limits: limits)
            guard case .delimited(let delimited)? = try reader.next() else {
                Issue.record("the fast parse accepted an element past the limits")
                return
            }
            let error = #expect(throws: PayloadError.self) {
                _ = try JSONTape(bytes: delimited.bytes, baseOffset: delimited.byteOffset, file: file, recordPath: "[0]", limits: limits)
            }
            #expect(error?.byteOffset == offset + 1)
            #expect(error?.path == path)
            #expect(error?.expected == expected)
            #expect(error?.found == found)
            // Within the defaults, the same element is parsed in place.
            let relaxed = try JSONArrayElementReader(path: file, arrayPath: [])
            guard case .parsed? = try relaxed.next() else {
                Issue.record("the element within the default limits was not parsed in place")
                return
            }
        }
    }
}
