import Foundation
import Testing

@testable import ImportBenchCore
@testable import ImportBenchPayload

@Suite("Errors quote little")
struct ErrorQuoteTests {
    @Test("a duplicated CSV column name of 5,000 characters is quoted at most 200 characters")
    func longQuote() throws {
        try withTemporaryPayloadDirectory { directory in
            let name = String(repeating: "c", count: 5_000)
            let file = directory.path("stops.txt")
            try Data("\(name),\(name)\n1,2\n".utf8).write(to: URL(fileURLWithPath: file))
            let error = #expect(throws: PayloadError.self) { _ = try CSVRecordReader(path: file) }
            #expect((error?.found.count ?? .max) <= PayloadError.longestQuote + 40)
            #expect(error?.found.hasSuffix("(cut at 200 characters)") == true)
        }
    }
}
