import Foundation
import ImportBenchCore
import ImportBenchPayload
import Testing

/// The bytes every payload reader reads: a plain file's, or a gzip file's inflated.
@Suite("Payload input")
struct PayloadInputTests {
    /// All of `path` through `PayloadInput`, in chunks of `chunk` bytes.
    private func readAll(_ path: String, chunk: Int = 7) throws -> [UInt8] {
        let input = try PayloadInput(path: path, expected: .readable(.file))
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: chunk)
        defer { buffer.deallocate() }
        var bytes: [UInt8] = []
        while true {
            let received = try input.read(into: buffer, count: chunk, offset: bytes.count)
            if received == 0 { return bytes }
            bytes += UnsafeBufferPointer(start: buffer, count: received)
        }
    }

    private func gzip(_ text: String, in folder: URL, name: String) throws -> URL {
        let plain = folder.appendingPathComponent(name)
        try text.write(to: plain, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-k", "-f", plain.path]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return folder.appendingPathComponent(name + ".gz")
    }

    @Test("a gzip file reads as its plain bytes, a plain file as itself, in any chunk size", arguments: [1, 7, 4096])
    func inflates(chunk: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("importbench-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = String(repeating: "{\"id\": 1, \"name\": \"ünïcode\"}\n", count: 500)
        let compressed = try gzip(text, in: folder, name: "lines.jsonl")
        #expect(try readAll(compressed.path, chunk: chunk) == Array(text.utf8))
        #expect(try readAll(folder.appendingPathComponent("lines.jsonl").path, chunk: chunk) == Array(text.utf8))
    }

    @Test("a damaged gzip stream is an error naming the file and the compressed byte, not garbage")
    func damaged() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("importbench-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let compressed = try gzip(String(repeating: "abcdefghij", count: 2000), in: folder, name: "data.txt")
        var bytes = try Data(contentsOf: compressed)
        for index in 20..<40 { bytes[index] ^= 0xA5 }
        try bytes.write(to: compressed)
        let error = #expect(throws: PayloadError.self) { _ = try readAll(compressed.path, chunk: 4096) }
        #expect(error?.file == compressed.path)
        #expect(
            error?.description.contains("compressed byte") == true || error?.description.contains("truncated") == true, "\(String(describing: error))"
        )
    }

    /// A small gzip file that inflates to `megabytes` of one never-ending element after `prefix`.
    private func bomb(prefix: String, megabytes: Int, in folder: URL, name: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", "(printf '%s' \"$0\"; head -c \"$1\" /dev/zero | tr '\\0' a) | gzip -1 > \"$2\"", prefix, "\(megabytes << 20)", path,
        ]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return path
    }

    @Test(
        "a gzip bomb (a small file inflating to one endless element) stops at the element limit, not at the end of the stream",
        arguments: ["bomb.json.gz", "bomb.jsonl.gz"])
    func gzipBomb(name: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("importbench-bomb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try bomb(prefix: name.contains("jsonl") ? "{\"a\": \"" : "[{\"a\": \"", megabytes: 256, in: folder, name: name)
        let onDisk = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(onDisk < 4 << 20, "the bomb is small on disk: \(onDisk) bytes")
        var limits = PayloadLimits.default
        limits.longestJSONElementBytes = 1 << 20
        let elements = try JSONElements.open(path: path, arrayPath: [], chunkSize: 1 << 16, limits: limits)
        let error = #expect(throws: PayloadError.self) { _ = try elements.next() }
        #expect(error.map { "\($0)" }?.contains("at most \(1 << 20) bytes") == true, "\(String(describing: error))")
    }
}
