import Foundation
@testable import ImportBenchCLI
import ImportBenchCore
import Testing

@Suite("bench run end to end")
struct RunCommandEndToEndTests {
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("importbench-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("all strategies on a small chat payload: one CSV row each, all valid, one digest")
    func allStrategies() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csvPath = directory.appendingPathComponent("r.csv").path

        let command = try #require(try BenchCommand.parseAsRoot(["run", "--scale", "0.02", "--csv", csvPath, "--quiet"]) as? RunCommand)
        try command.run()

        let lines = try String(contentsOfFile: csvPath, encoding: .utf8).split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = try #require(lines.first)
        let rows = lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
        #expect(rows.map { $0["strategy"] } == StrategyRegistry.names)
        #expect(rows.allSatisfy { $0["valid"] == "true" })
        #expect(Set(rows.compactMap { $0["digest"] }).count == 1)
        #expect(rows.allSatisfy { $0["scale"] == "0.02x" && $0["batch_size"] == "1000" })
    }

    @Test("a missing payload file fails with a message naming it")
    func missingPayload() throws {
        let command = try #require(try BenchCommand.parseAsRoot(["run", "--payload", "/nonexistent/chat.json", "--quiet"]) as? RunCommand)
        let error = #expect(throws: CommandFailure.self) { try command.run() }
        #expect(error?.message.contains("/nonexistent/chat.json") == true)
        #expect(error?.exitCode == 1)
    }

    @Test("a truncated payload fails with its byte offset and leaves no result")
    func truncatedPayload() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let full = directory.appendingPathComponent("full.json").path
        try ChatScenario().generate(scale: 0.02, seed: 1, to: full)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: full))
        let cut = directory.appendingPathComponent("cut.json").path
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))

        let command = try #require(try BenchCommand.parseAsRoot(["run", "--payload", cut, "--quiet", "--csv", directory.appendingPathComponent("r.csv").path]) as? RunCommand)
        let error = #expect(throws: CommandFailure.self) { try command.run() }
        #expect(error?.message.contains(cut) == true)
        #expect(error?.message.contains("byte") == true)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("r.csv").path))
    }
}
