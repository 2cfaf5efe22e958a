import Foundation
import ArgumentParser
@testable import ImportBenchCLI
import Testing

@Suite("Exit statuses")
struct ExitStatusTests {
    @Test("the README's table is the code's, line for line")
    func readmeTable() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        #expect(text.contains(ExitStatus.markdownTable))
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
