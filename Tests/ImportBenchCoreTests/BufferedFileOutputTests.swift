import Foundation
import Testing

@testable import ImportBenchCore

/// Files bench writes appear under their final names only when complete.
@Suite("Written files")
struct BufferedFileOutputTests {
    @Test("the final name appears at close, replacing what was there; nothing else is left beside it")
    func completes() throws {
        try withTemporaryPayloadDirectory { directory in
            let path = directory.path("payload.json")
            try Data("old".utf8).write(to: URL(fileURLWithPath: path))
            let output = try BufferedFileOutput(path: path, bufferCapacity: 64)
            for _ in 0..<1_000 { output.append("0123456789") }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
            try output.close()
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == 10_000)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["payload.json"])
        }
    }

    @Test("a writer abandoned before close (an error, a stop) leaves neither the final name nor a partial file")
    func abandoned() throws {
        try withTemporaryPayloadDirectory { directory in
            do {
                let output = try BufferedFileOutput(path: directory.path("payload.json"), bufferCapacity: 64)
                for _ in 0..<1_000 { output.append("0123456789") }
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
        }
    }

    @Test("a directory at the path is refused before anything is written")
    func directoryRefused() throws {
        try withTemporaryPayloadDirectory { directory in
            let path = directory.path("out")
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            let error = #expect(throws: PayloadError.self) { _ = try BufferedFileOutput(path: path, bufferCapacity: 64) }
            #expect(error?.found == "a directory")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["out"])
        }
    }
}
