import Foundation
import Testing

@testable import ImportBenchCore
@testable import ImportBenchPayload

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

@Suite("Written feeds")
struct GeneratedFeedTests {
    @Test("a GTFS feed appears whole, over nothing or over an earlier feed; a directory in the way fails and stays")
    func feed() throws {
        try withTemporaryPayloadDirectory { directory in
            let scenario = TransitScenario()
            let fresh = directory.path("feed")
            try scenario.generate(scale: 0.01, seed: 1, to: fresh)
            #expect(Set(try FileManager.default.contentsOfDirectory(atPath: fresh)) == ["stops.txt", "trips.txt", "stop_times.txt"])
            try scenario.generate(scale: 0.02, seed: 1, to: fresh)
            #expect(Set(try FileManager.default.contentsOfDirectory(atPath: fresh)) == ["stops.txt", "trips.txt", "stop_times.txt"])

            let blocked = directory.path("blocked")
            try FileManager.default.createDirectory(atPath: blocked + "/stops.txt", withIntermediateDirectories: true)
            try Data("keep me".utf8).write(to: URL(fileURLWithPath: blocked + "/stops.txt/inside.txt"))
            #expect(throws: PayloadError.self) { try scenario.generate(scale: 0.01, seed: 1, to: blocked) }
            #expect(FileManager.default.contents(atPath: blocked + "/stops.txt/inside.txt") == Data("keep me".utf8))
            // No staging directory is left beside them.
            #expect(Set(try FileManager.default.contentsOfDirectory(atPath: directory.url.path)) == ["feed", "blocked"])
        }
    }
}
