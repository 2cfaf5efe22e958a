import Foundation
import Testing

@testable import ImportBenchCore
@testable import ImportBenchPayload

@Suite("Payload paths")
struct PayloadPathTests {
    @Test("a FIFO, a device, a missing file, and a FIFO inside a feed directory are refused, named")
    func refused() throws {
        try withTemporaryPayloadDirectory { directory in
            let fifo = directory.path("payload.json")
            #expect(mkfifo(fifo, 0o644) == 0)
            #expect(
                throws: PayloadError(
                    file: fifo, byteOffset: nil, path: nil, expected: .regularFile(inDirectory: false),
                    found: "a FIFO (a named pipe), which could keep bench waiting forever")
            ) { try PayloadPath.check(fifo) }
            #expect(throws: PayloadError.self) { try PayloadPath.check("/dev/zero") }
            #expect(throws: PayloadError.self) { try PayloadPath.check(directory.path("absent.json")) }
            let feed = directory.path("feed")
            try FileManager.default.createDirectory(atPath: feed, withIntermediateDirectories: false)
            try Data("stop_id\n".utf8).write(to: URL(fileURLWithPath: feed + "/stops.txt"))
            try PayloadPath.check(feed)
            #expect(mkfifo(feed + "/trips.txt", 0o644) == 0)
            let error = #expect(throws: PayloadError.self) { try PayloadPath.check(feed) }
            #expect(error?.file == feed + "/trips.txt")
            try Data("[]".utf8).write(to: URL(fileURLWithPath: directory.path("ok.json")))
            try PayloadPath.check(directory.path("ok.json"))
        }
    }
}
