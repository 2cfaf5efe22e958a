import Foundation
import Testing

@testable import ImportBenchCore

/// What the docs say of the code, held to the code (issue 48): the number of strategies bench ships,
/// and every target of the package in the layout of docs/internals.md.
@Suite("Docs against the code")
struct DocumentedFactsTests {
    static let root = DocumentLinksTests.root
    static let numbers = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]

    @Test("docs/plugins.md names as many strategies of bench's own as `--strategy all` runs besides the ceiling")
    func strategyCount() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/plugins.md"), encoding: .utf8)
        let designs = StrategyCatalog.builtIn.all.filter { $0.role != .limit }.count
        let said = text.matches(of: /bench's (\w+) strategies/).map { String($0.1) }
        #expect(!said.isEmpty)
        for word in said { #expect(Self.numbers.firstIndex(of: word).map { $0 + 1 } == designs, "\"bench's \(word) strategies\": \(designs) ship") }
    }

    @Test("every folder of Sources is in docs/internals.md's layout")
    func layoutNamesEveryTarget() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/internals.md"), encoding: .utf8)
        let layout = try #require(text.components(separatedBy: "## Layout").dropFirst().first)
        let targets = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources").path)
        #expect(targets.count > 10)
        for target in targets where !layout.contains("Sources/\(target) ") && !layout.contains("Sources/\(target),") {
            Issue.record("Sources/\(target) is missing from the layout in docs/internals.md")
        }
    }
}
