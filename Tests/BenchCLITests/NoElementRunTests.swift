import Foundation
import ImportBenchCore
import Testing

@testable import ImportBenchCLI

/// `bench run` refuses a payload with no element before any strategy runs, as it refuses an empty
/// `.json`: nothing imported, no strategy reported valid over zero records, no results written.
@Suite("bench run on a payload with no element")
struct NoElementRunTests {
    @Test(
        "refused before any import, with the file, the position and what was expected",
        arguments: [
            (
                "products", "empty.jsonl", "",
                "empty.jsonl at byte 0: expected at least one element: a JSON value on a line of its own (JSON Lines), found an empty file"
            ),
            (
                "products", "blank.jsonl", "\n\n \n",
                "blank.jsonl at byte 4: expected at least one element: a JSON value on a line of its own (JSON Lines), found an empty file (only blank lines)"
            ),
            ("chat", "blank.jsonl", "\r\n", "blank.jsonl at byte 2: expected at least one element"),
            ("products", "empty.json", "[]", "empty.json at byte 1: expected at least one element in the top-level array, found an empty array"),
            (
                "chat", "empty.json", #"{"channels":[]}"#,
                #"empty.json at byte 13 (channels): expected at least one element in array "channels", found an empty array"#
            ),
            ("products", "empty.json", "", "empty.json at byte 0: expected '[' opening the document, found an empty file"),
        ])
    func refused(scenario: String, name: String, text: String, message: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("importbench-noelement-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let command = try #require(
            try BenchCommand.parseAndCheck(["run", "--scenario", scenario, "--payload", path, "--strategy", "naive"]) as? RunCommand)
        let resolved = try ScenarioSource.builtIn(scenario).resolve()
        let failure = #expect(throws: CommandFailure.self) { try command.checkShape(of: path, as: resolved) }
        #expect(failure?.exitCode == ExitStatus.failure.rawValue)
        let described = failure?.description ?? ""
        #expect(described.contains(folder.path + "/" + message), "\(described)")
        #expect(described.hasSuffix("nothing was imported."), "\(described)")
    }
}
