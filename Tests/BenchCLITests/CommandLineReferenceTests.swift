import ArgumentParser
import Foundation
import Testing

@testable import ImportBenchCLI

/// docs/command-line.md is every subcommand's `--help`, written by scripts/cli-reference. Every
/// option a subcommand's help lists must be on that page, so an option added, renamed or moved in
/// the code fails here until the script has run again.
@Suite("Command-line reference")
struct CommandLineReferenceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let page = "docs/command-line.md"
    static let script = "scripts/cli-reference"

    /// Every subcommand `bench --help` lists, with its path of names (`run`; a nested one `a b`).
    static func commands(
        under parent: any ParsableCommand.Type = BenchCommand.self, path: [String] = []
    ) -> [(name: String, type: any ParsableCommand.Type)] {
        parent.configuration.subcommands.filter { $0.configuration.shouldDisplay }.flatMap { type in
            let name = path + [type.configuration.commandName ?? ""]
            return [(name.joined(separator: " "), type)] + commands(under: type, path: name)
        }
    }

    static func command(named name: String) throws -> any ParsableCommand.Type {
        try #require(commands().first { $0.name == name }?.type, "no subcommand \(name)")
    }

    /// The `--option` names a help text mentions (`--isolate/--no-isolate` gives both), without `--help` and `--version`.
    static func options(inHelp help: String) -> Set<String> {
        Set(help.matches(of: /(?:^|[^a-z0-9-])(--[a-z][a-z0-9-]*)/).map { String($0.1) }).subtracting(["--help", "--version"])
    }

    /// Those of `options` that `text` does not name as a whole option (`--scale` is not named by `--scales`).
    static func missing(_ options: Set<String>, from text: String) -> [String] {
        options.filter { option in
            !text.contains(try! Regex(NSRegularExpression.escapedPattern(for: option) + "(?![a-z0-9-])"))
        }.sorted()
    }

    static func reference() throws -> String {
        try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
    }

    @Test("every option each subcommand's --help lists is in docs/command-line.md", arguments: commands().map { $0.name })
    func optionsDocumented(command name: String) throws {
        let help = try Self.command(named: name).helpMessage(columns: 1_000)
        let options = Self.options(inHelp: help)
        let missing = Self.missing(options, from: try Self.reference())
        #expect(
            missing.isEmpty,
            "bench \(name): \(missing.joined(separator: ", ")) not in \(Self.page); run \(Self.script) to write it again from --help")
    }

    @Test("docs/command-line.md has a section for every subcommand", arguments: commands().map { $0.name })
    func sectionPerCommand(command name: String) throws {
        #expect(
            try Self.reference().contains("\n## bench \(name)\n"),
            "\(Self.page) has no section \"## bench \(name)\"; run \(Self.script) to write it again from --help")
    }

    @Test("the check finds options, and names the one a page lacks")
    func finder() throws {
        let help = try Self.command(named: "run").helpMessage(columns: 1_000)
        let options = Self.options(inHelp: help)
        #expect(options.isSuperset(of: ["--scale", "--batch-size", "--isolate", "--no-isolate", "--csv"]))
        #expect(!options.contains("--help"))
        let page = "--scales, --batch-size, --isolate/--no-isolate, --csv and --help"
        #expect(Self.missing(["--scale", "--batch-size", "--no-isolate", "--csv"], from: page) == ["--scale"])
    }
}
