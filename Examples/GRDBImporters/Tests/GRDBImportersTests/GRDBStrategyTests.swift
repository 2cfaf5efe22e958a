import Foundation
import Testing

/// The GRDB strategies beside bench's own, through `grdb-bench` as a user runs it: each run in a
/// child process of its own, counted at the SQLite level, verified against the payload.
@Suite("GRDB strategies beside bench's")
struct GRDBStrategyTests {
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let repository = package.deletingLastPathComponent().deletingLastPathComponent()
    /// The debug grdb-bench that `swift build --build-tests` leaves beside the tests.
    static let binary = package.appendingPathComponent(".build/debug/grdb-bench")

    static let strategies = "naive,cache,prewarm,upsert,idcache,grdb-naive,grdb-cache,grdb-prewarm,grdb-upsert,grdb-idcache"

    /// Runs grdb-bench with `arguments` and a CSV in a temporary directory; the CSV's rows by strategy.
    private func run(_ arguments: [String]) throws -> [String: [String: String]] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("grdb-importers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = directory.appendingPathComponent("results.csv").path
        let (status, text) = try Self.launch(Self.binary, ["run"] + arguments + ["--strategy", Self.strategies, "--quiet", "--csv", csv])
        #expect(status == 0, "grdb-bench \(arguments.joined(separator: " ")): \(text)")
        let lines = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\r\n").map(Self.fields)
        let header = try #require(lines.first)
        let rows = lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
        return Dictionary(rows.map { ($0["strategy"] ?? "", $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Runs `binary` with `arguments`; its exit status and what it wrote on both outputs.
    static func launch(_ binary: URL, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// The fields of one CSV line: a quoted field (a preload spec holds a comma) is one field.
    static func fields(_ line: Substring) -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var characters = line[...]
        while let character = characters.popFirst() {
            if quoted, character == "\"" {
                if characters.first == "\"" {
                    field.append("\"")
                    characters.removeFirst()
                } else {
                    quoted = false
                }
            } else if quoted {
                field.append(character)
            } else if character == "\"" {
                quoted = true
            } else if character == "," {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
        }
        fields.append(field)
        return fields
    }

    private func expectValidWithOneDigest(_ rows: [String: [String: String]]) {
        #expect(rows.count == Self.strategies.split(separator: ",").count + 1)  // the ceiling runs too
        for (strategy, row) in rows { #expect(row["valid"] == "true", "\(strategy) wrote other data") }
        #expect(Set(rows.values.compactMap { $0["digest"] }).count == 1)
        #expect(rows.values.allSatisfy { $0["counted_at"] == "sqlite" })
    }

    @Test("chat: every run valid with one digest; grdb-naive fetches exactly what naive fetches, grdb-cache what cache does")
    func chat() throws {
        let rows = try run(["--scenario", "chat", "--scale", "0.05", "--batch-size", "200"])
        expectValidWithOneDigest(rows)
        #expect(rows["grdb-naive"]?["fetch_count"] == rows["naive"]?["fetch_count"])
        #expect(rows["grdb-cache"]?["fetch_count"] == rows["cache"]?["fetch_count"])
        #expect(Int(rows["naive"]?["fetch_count"] ?? "") ?? 0 > 0)
    }

    @Test("a refresh of chat (overlap 0.9, changed 0.2): every run valid with one digest")
    func chatRefresh() throws {
        expectValidWithOneDigest(try run(["--scenario", "chat", "--scale", "0.05", "--batch-size", "200", "--preload", "overlap=0.9,changed=0.2"]))
    }

    @Test("products, and the orders feed read through its mapping: every run valid with one digest")
    func productsAndOrders() throws {
        expectValidWithOneDigest(try run(["--scenario", "products", "--scale", "0.1", "--batch-size", "250"]))
        let orders = Self.repository.appendingPathComponent("Scenarios/examples/orders")
        expectValidWithOneDigest(
            try run([
                "--mapping", orders.appendingPathComponent("mapping.yml").path, "--payload", orders.appendingPathComponent("orders.json").path,
                "--batch-size", "100",
            ]))
    }

    @Test("a strategy that installs GRDB's own trace (db.trace) fails the run, saying so, instead of reporting short counts")
    func ownTraceRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("grdb-importers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let traced = Self.package.appendingPathComponent(".build/debug/grdb-traced-bench")
        let csv = directory.appendingPathComponent("results.csv").path
        let refused = try Self.launch(traced, ["run", "--scenario", "chat", "--scale", "0.02", "--strategy", "grdb-traced", "--quiet", "--csv", csv])
        #expect(refused.status != 0, "\(refused.output)")
        #expect(refused.output.contains("did not report closing"), "\(refused.output)")
        #expect(refused.output.contains("db.trace"), "\(refused.output)")
        // The same writes without the trace are counted and valid.
        let counted = try Self.launch(traced, ["run", "--scenario", "chat", "--scale", "0.02", "--strategy", "grdb-upsert", "--quiet", "--csv", csv])
        #expect(counted.status == 0, "\(counted.output)")
    }
}
