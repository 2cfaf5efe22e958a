import Foundation
import Testing

@testable import ImportBenchCore
@testable import ImportBenchPayload

@Suite("Payload hash")
struct PayloadHasherTests {
    static func digest(_ bytes: [UInt8], splits: [Int]) -> String {
        let hasher = PayloadHasher()
        var start = 0
        for end in splits + [bytes.count] where end >= start {
            bytes[start..<end].withUnsafeBytes { hasher.update($0) }
            start = end
        }
        return hasher.digest
    }

    @Test("the same bytes give the same hash however the reads split them")
    func splits() {
        let bytes = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let whole = Self.digest(bytes, splits: [])
        for splits in [[1], [7, 8, 9], [3, 500, 501, 999], Array(stride(from: 0, to: 1_000, by: 13))] {
            #expect(Self.digest(bytes, splits: splits) == whole)
        }
        #expect(whole.hasPrefix("1000/"))
    }

    @Test("one byte changed anywhere, a byte more or less, or a file renamed gives another hash")
    func changes() {
        let bytes = (0..<4_097).map { UInt8(truncatingIfNeeded: $0) }
        let whole = Self.digest(bytes, splits: [])
        var seen: Set<String> = [whole]
        for position in [0, 7, 8, 2_048, 4_095, 4_096] {
            var edited = bytes
            edited[position] ^= 0x01
            #expect(seen.insert(Self.digest(edited, splits: [100])).inserted, "edit at \(position)")
        }
        #expect(seen.insert(Self.digest(bytes + [0], splits: [])).inserted)
        #expect(seen.insert(Self.digest(Array(bytes.dropLast()), splits: [])).inserted)
        let first = PayloadHasher()
        let second = PayloadHasher()
        first.beginFile(named: "stops.txt")
        second.beginFile(named: "trips.txt")
        #expect(first.digest != second.digest)
    }

    @Test("the readers hash exactly the file's bytes, BOM included, whatever their chunk size", arguments: [1, 5, 1 << 20])
    func readers(chunkSize: Int) throws {
        try withTemporaryPayloadDirectory { directory in
            let json = Array("{\"channels\":[{\"id\":1},{\"id\":2}],\"after\":true}\n".utf8)
            let csv = [0xEF, 0xBB, 0xBF] + Array("stop_id,name\r\n1,\"A, B\"\r\n2,C\r\n".utf8)
            let jsonPath = directory.path("payload.json")
            let csvPath = directory.path("stops.txt")
            try Data(json).write(to: URL(fileURLWithPath: jsonPath))
            try Data(csv).write(to: URL(fileURLWithPath: csvPath))

            let jsonHasher = PayloadHasher()
            let elements = try JSONArrayElementReader(path: jsonPath, arrayPath: ["channels"], chunkSize: chunkSize, hasher: jsonHasher)
            while try elements.next() != nil {}
            #expect(jsonHasher.digest == Self.digest(json, splits: []))

            let csvHasher = PayloadHasher()
            let rows = try CSVRecordReader(path: csvPath, chunkSize: chunkSize, hasher: csvHasher)
            while try rows.nextRow() {}
            #expect(csvHasher.digest == Self.digest(csv, splits: []))
        }
    }
}
