import Foundation
import Testing

/// A payload compressed with gzip is read as it streams, inflated: the same rows as the plain
/// file, its size the inflated one, a truncated stream a located error.
@Suite("gzip payloads")
struct GzipPayloadTests {
    /// Runs a shell line in `folder` (gzip, head, cat), requiring it to succeed.
    private func shell(_ line: String, in folder: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", line]
        process.currentDirectoryURL = folder
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(line) failed")
    }

    private func rows(_ payload: String, in folder: URL) throws -> (status: Int32, output: String, rows: [[String: String]]) {
        let csv = folder.appendingPathComponent("\(UUID().uuidString).csv").path
        let ran = try IsolatedRunTests.bench([
            "run", "--scenario", "chat", "--payload", folder.appendingPathComponent(payload).path, "--strategy", "naive", "--quiet", "--csv", csv,
        ])
        let rows = FileManager.default.fileExists(atPath: csv) ? try RunCommandEndToEndTests.csvRows(csv) : []
        return (ran.status, ran.output, rows)
    }

    @Test("one gzip member, or two concatenated: the plain file's digest, counts and inflated size")
    func sameAsPlain() throws {
        let folder = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = try IsolatedRunTests.bench([
            "generate", "--scenario", "chat", "--scale", "0.05", "--out", folder.appendingPathComponent("chat.json").path,
        ])
        try #require(made.status == 0, "\(made.output)")
        try shell("gzip -k chat.json && head -c 300000 chat.json | gzip > two.json.gz && tail -c +300001 chat.json | gzip >> two.json.gz", in: folder)
        let plain = try rows("chat.json", in: folder)
        try #require(plain.status == 0, "\(plain.output)")
        for name in ["chat.json.gz", "two.json.gz"] {
            let compressed = try rows(name, in: folder)
            #expect(compressed.status == 0, "\(compressed.output)")
            for column in ["digest", "fetch_count", "records", "valid", "payload_bytes"] {
                #expect(compressed.rows.map { $0[column] } == plain.rows.map { $0[column] }, "\(name): \(column)")
            }
        }
    }

    @Test("generate --out NAME.gz writes the payload gzipped: inflated, the same bytes as the plain one")
    func generateCompressed() throws {
        let folder = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["p.json", "p.json.gz"] {
            let made = try IsolatedRunTests.bench([
                "generate", "--scenario", "products", "--scale", "0.05", "--out", folder.appendingPathComponent(name).path,
            ])
            try #require(made.status == 0, "\(made.output)")
        }
        try shell("gunzip -c p.json.gz | cmp - p.json", in: folder)
        let written = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("p.json.gz").path)[.size] as? Int
        let plain = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("p.json").path)[.size] as? Int
        #expect((written ?? 0) < (plain ?? 0) / 3, "compressed \(written ?? 0) of \(plain ?? 0) bytes")
    }

    @Test("a truncated gzip stream stops the import with a located error, exit 1")
    func truncated() throws {
        let folder = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = try IsolatedRunTests.bench([
            "generate", "--scenario", "chat", "--scale", "0.05", "--out", folder.appendingPathComponent("chat.json").path,
        ])
        try #require(made.status == 0, "\(made.output)")
        try shell("gzip -k chat.json && head -c 20000 chat.json.gz > cut.json.gz", in: folder)
        let cut = try rows("cut.json.gz", in: folder)
        #expect(cut.status == 1, "\(cut.output)")
        #expect(cut.output.contains("cut.json.gz at byte "), "\(cut.output)")
        #expect(cut.output.contains("expected the rest of the gzip stream, found the file's end at compressed byte 20000"), "\(cut.output)")
    }
}
