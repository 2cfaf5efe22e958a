import Foundation
import ImportBenchCore
import Testing

@testable import ImportBenchCLI

/// bench never writes over what it did not make: an output that names an input of the same
/// command is refused before any work, and so is a file already there that bench did not write
/// for the same purpose, unless --force; the refusal names the option and the path.
@Suite("Outputs that never overwrite inputs")
struct OutputPathTests {
    /// A directory of its own, with a small chat payload, a mapping-free results CSV, and a text file.
    struct Workspace {
        let directory: URL
        let payload: String
        let notes: String

        init() throws {
            directory = try RunCommandEndToEndTests.temporaryDirectory()
            payload = directory.appendingPathComponent("mine.json").path
            try ChatScenario().generate(scale: 0.01, seed: 1, to: payload)
            notes = directory.appendingPathComponent("notes.txt").path
            try Data("notes I wrote\n".utf8).write(to: URL(fileURLWithPath: notes))
        }

        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

        func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

        func remove() { try? FileManager.default.removeItem(at: directory) }

        /// r.csv, written by a small bench run: a results file bench made.
        func results() throws -> String {
            let csv = path("r.csv")
            let run = try #require(
                try BenchCommand.parseAndCheck([
                    "run", "--scenario", "chat", "--scale", "0.01", "--strategy", "naive", "--csv", csv, "--quiet", "--no-isolate",
                ])
                    as? RunCommand)
            try run.run()
            return csv
        }
    }

    static func failure(_ arguments: [String]) throws -> CommandFailure? {
        let command = try BenchCommand.parseAndCheck(arguments)
        return #expect(throws: CommandFailure.self) {
            var command = command
            try command.run()
        }
    }

    @Test(
        "run --csv naming its own payload, directly, through a symbolic link or a hard link: refused, the payload untouched",
        arguments: ["direct", "symlink", "hardlink"])
    func csvOverPayload(link: String) throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let before = try workspace.bytes(workspace.payload)
        let alias = workspace.path("alias.json")
        switch link {
        case "symlink": try FileManager.default.createSymbolicLink(atPath: alias, withDestinationPath: workspace.payload)
        case "hardlink": try FileManager.default.linkItem(atPath: workspace.payload, toPath: alias)
        default: break
        }
        let csv = link == "direct" ? workspace.payload : alias
        let error = try Self.failure([
            "run", "--scenario", "chat", "--payload", workspace.payload, "--strategy", "naive", "--csv", csv, "--quiet", "--no-isolate", "--force",
        ])
        #expect(error?.exitCode == 1)
        #expect(error?.message.contains("--csv \(csv)") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("--payload") == true)
        #expect(try workspace.bytes(workspace.payload) == before)
    }

    @Test("run --csv over a file bench did not write: refused unless --force")
    func csvOverNotes() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let arguments = ["run", "--scenario", "chat", "--scale", "0.01", "--strategy", "naive", "--csv", workspace.notes, "--quiet", "--no-isolate"]
        let error = try Self.failure(arguments)
        #expect(error?.message.contains("--force") == true, "\(error?.message ?? "")")
        #expect(try workspace.bytes(workspace.notes) == Data("notes I wrote\n".utf8))
        let forced = try #require(try BenchCommand.parseAndCheck(arguments + ["--force"]) as? RunCommand)
        try forced.run()
        #expect(try String(contentsOfFile: workspace.notes, encoding: .utf8).hasPrefix("scenario,strategy,"))
        // Bench's own results file is replaced without --force.
        let again = try #require(try BenchCommand.parseAndCheck(arguments) as? RunCommand)
        try again.run()
    }

    @Test("report --out naming one of its CSVs, or a page bench did not write: refused, the file untouched")
    func reportOverInput() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let csv = try workspace.results()
        let results = try workspace.bytes(csv)
        let overInput = try Self.failure(["report", csv, "--out", csv, "--force"])
        #expect(overInput?.message.contains("--out \(csv)") == true, "\(overInput?.message ?? "")")
        #expect(try workspace.bytes(csv) == results)
        let overNotes = try Self.failure(["report", csv, "--out", workspace.notes])
        #expect(overNotes?.message.contains("not an HTML report") == true, "\(overNotes?.message ?? "")")
        #expect(try workspace.bytes(workspace.notes) == Data("notes I wrote\n".utf8))
        // A page bench wrote is replaced.
        let page = workspace.path("report.html")
        for _ in 0..<2 {
            let report = try #require(try BenchCommand.parseAndCheck(["report", csv, "--out", page]) as? ReportCommand)
            try report.run()
        }
    }

    @Test(
        "report --format svg into a directory holding a chart's name that bench did not write: refused, nothing written; its own charts are replaced")
    func chartsOverForeignFile() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let csv = try workspace.results()
        let charts = workspace.path("charts")
        let report = try #require(try BenchCommand.parseAndCheck(["report", csv, "--format", "svg", "--out", charts]) as? ReportCommand)
        try report.run()
        try report.run()
        let names = try FileManager.default.contentsOfDirectory(atPath: charts).sorted()
        let first = try #require(names.first)
        try Data("my own drawing\n".utf8).write(to: URL(fileURLWithPath: charts + "/" + first))
        let error = try Self.failure(["report", csv, "--format", "svg", "--out", charts])
        #expect(error?.message.contains(first) == true, "\(error?.message ?? "")")
        #expect(try workspace.bytes(charts + "/" + first) == Data("my own drawing\n".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: charts).sorted() == names)
    }

    @Test("generate --out over an existing file needs --force; the new payload is renamed into place, leaving nothing beside it")
    func generateOverExisting() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let before = try workspace.bytes(workspace.payload)
        let error = try Self.failure(["generate", "--scenario", "chat", "--scale", "0.01", "--out", workspace.payload])
        #expect(error?.message.contains("--out \(workspace.payload)") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("--force") == true)
        #expect(try workspace.bytes(workspace.payload) == before)
        let forced = try #require(
            try BenchCommand.parseAndCheck(["generate", "--scenario", "chat", "--scale", "0.02", "--out", workspace.payload, "--force"])
                as? GenerateCommand)
        try forced.run()
        #expect(try workspace.bytes(workspace.payload) != before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.directory.path).sorted() == ["mine.json", "notes.txt"])
    }

    @Test("export --out naming one of its CSVs, or a JSON payload: refused; its own export is replaced")
    func exportOverInput() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let csv = try workspace.results()
        let results = try workspace.bytes(csv)
        let error = try Self.failure(["export", csv, "--format", "bencher", "--out", csv, "--force"])
        #expect(error?.message.contains("--out \(csv)") == true, "\(error?.message ?? "")")
        #expect(try workspace.bytes(csv) == results)
        // A JSON payload is not an export: refused; an export bench wrote is replaced.
        let payload = try workspace.bytes(workspace.payload)
        let overPayload = try Self.failure(["export", csv, "--format", "bencher", "--out", workspace.payload])
        #expect(overPayload?.message.contains("not a JSON export") == true, "\(overPayload?.message ?? "")")
        #expect(try workspace.bytes(workspace.payload) == payload)
        for format in ["bencher", "github-action", "bencher"] {
            let export = try #require(
                try BenchCommand.parseAndCheck(["export", csv, "--format", format, "--out", workspace.path("e.json")]) as? ExportCommand)
            try export.run()
        }
    }
}
