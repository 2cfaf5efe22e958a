import ArgumentParser
import Foundation
import Testing

@testable import ImportBenchCLI

@Suite("Exit statuses")
struct ExitStatusTests {
    @Test("docs/ci.md's table is the code's, line for line")
    func documentedTable() throws {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/ci.md")
        let text = try String(contentsOf: page, encoding: .utf8)
        #expect(text.contains(ExitStatus.markdownTable), "docs/ci.md, \"Exit status\": the table differs from ExitStatus's")
    }

    @Test("bench --help prints every status; failures map to theirs")
    func help() {
        let help = BenchCommand.helpMessage()
        for status in ExitStatus.allCases { #expect(help.contains(status.meaning), "\(status)") }
        #expect(CommandFailure.failed("x").exitCode == 1)
        #expect(CommandFailure.invalid("x").exitCode == 3)
        #expect(ExitStatus.usage.rawValue == ExitCode.validationFailure.rawValue)
    }
}
