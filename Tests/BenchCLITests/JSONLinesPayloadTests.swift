import Foundation
import Testing

/// A payload of JSON Lines (`.jsonl`, `.ndjson`, gzipped or not): one element per line, the same
/// rows as the array they came from; a bad line located by its number, skipped on request; a
/// pretty-printed document given that name refused, saying so.
@Suite("JSON Lines payloads")
struct JSONLinesPayloadTests {
    /// Products generated, then rewritten by Python's json module: as lines (a blank line among
    /// them), gzipped, with line 11 broken, and as one pretty-printed document.
    private func payloads() throws -> URL {
        let folder = try RunCommandEndToEndTests.temporaryDirectory()
        let made = try IsolatedRunTests.bench([
            "generate", "--scenario", "products", "--scale", "0.05", "--out", folder.appendingPathComponent("p.json").path,
        ])
        try #require(made.status == 0, "\(made.output)")
        let script = """
            import json
            d = json.load(open('p.json'))
            lines = [json.dumps(x) for x in d]
            open('p.jsonl', 'w').write('\\n'.join(lines[:200]) + '\\n\\n' + '\\n'.join(lines[200:]) + '\\n')
            lines[10] = '{"serialCode": "x", broken'
            open('bad.ndjson', 'w').write('\\n'.join(lines) + '\\n')
            open('pretty.jsonl', 'w').write(json.dumps(d[:3], indent=2))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "python3 -c \"$0\" && gzip -k p.jsonl", script]
        process.currentDirectoryURL = folder
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return folder
    }

    private func run(_ payload: String, in folder: URL, _ extra: [String] = []) throws -> (status: Int32, output: String, rows: [[String: String]]) {
        let csv = folder.appendingPathComponent("\(UUID().uuidString).csv").path
        let ran = try IsolatedRunTests.bench(
            [
                "run", "--scenario", "products", "--payload", folder.appendingPathComponent(payload).path, "--strategy", "naive", "--quiet", "--csv",
                csv,
            ] + extra)
        return (ran.status, ran.output, FileManager.default.fileExists(atPath: csv) ? try RunCommandEndToEndTests.csvRows(csv) : [])
    }

    @Test("lines, a blank one among them, plain or gzipped: the array's digest and counts")
    func sameAsArray() throws {
        let folder = try payloads()
        defer { try? FileManager.default.removeItem(at: folder) }
        let array = try run("p.json", in: folder)
        try #require(array.status == 0, "\(array.output)")
        for name in ["p.jsonl", "p.jsonl.gz"] {
            let lines = try run(name, in: folder)
            #expect(lines.status == 0, "\(lines.output)")
            for column in ["digest", "records", "fetch_count", "valid"] {
                #expect(lines.rows.map { $0[column] } == array.rows.map { $0[column] }, "\(name): \(column)")
            }
        }
    }

    @Test("a line that cannot be read stops the import, named by its number and column; --on-error skip leaves it out")
    func badLine() throws {
        let folder = try payloads()
        defer { try? FileManager.default.removeItem(at: folder) }
        let failed = try run("bad.ndjson", in: folder)
        #expect(failed.status == 1, "\(failed.output)")
        // Line 11 is `{"serialCode": "x", broken`: the column is the byte where the key should start.
        #expect(failed.output.contains("bad.ndjson line 11, column 21"), "\(failed.output)")
        let skipped = try run("bad.ndjson", in: folder, ["--on-error", "skip"])
        #expect(skipped.status == 0, "\(skipped.output)")
        #expect(skipped.rows.first?["records"] == "499", "\(skipped.output)")
    }

    @Test("a pretty-printed document named .jsonl is refused, saying what it is")
    func prettyPrinted() throws {
        let folder = try payloads()
        defer { try? FileManager.default.removeItem(at: folder) }
        let refused = try run("pretty.jsonl", in: folder)
        #expect(refused.status == 1, "\(refused.output)")
        #expect(refused.output.contains("a pretty-printed JSON file, not JSON Lines; give it a .json name"), "\(refused.output)")
    }
}
