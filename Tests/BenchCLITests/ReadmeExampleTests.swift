import ArgumentParser
import Foundation
import ImportBenchCore
import ImportBenchReport
import Testing

@testable import ImportBenchCLI

/// The example tables of the README and of docs/*.md, marked `<!-- readme-example: ARGUMENTS -->`
/// and written by scripts/readme-examples, hold the counts bench computes for those arguments: a
/// change that moves a count fails here until the script has rewritten them. Times are not checked
/// (they are the machine's); each example runs once, in this process.
@Suite("README examples")
struct ReadmeExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    struct Example: CustomStringConvertible, Sendable {
        /// The page that shows it, relative to the checkout: README.md or docs/NAME.md.
        let page: String
        let arguments: [String]
        /// Per strategy, its row's records, unique, fetches, statements and txns cells.
        let counts: [String: [String]]
        var description: String { "\(page): " + arguments.joined(separator: " ") }
    }

    static let countHeadings = ["occurrences", "objects", "fetches", "statements", "txns"]

    /// The pages that may hold examples: the README, then docs/*.md by name (scripts/readme-examples reads the same).
    static func pages() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }

    /// Every marked example of those pages.
    static func examples() throws -> [Example] {
        try pages().flatMap { try examples(page: $0) }
    }

    /// The marked examples of one page.
    static func examples(page: String) throws -> [Example] {
        let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        var examples: [Example] = []
        for (index, line) in lines.enumerated() where line.hasPrefix("<!-- readme-example: ") && line.hasSuffix(" -->") && index + 2 < lines.count {
            let arguments = line.dropFirst("<!-- readme-example: ".count).dropLast(" -->".count).split(separator: " ").map(String.init)
            var counts: [String: [String]] = [:]
            var headings: [String]?
            for row in lines[(index + 2)...] {
                if row == "```" { break }
                let cells = row.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                if cells.first == "strategy" {
                    headings = cells
                    continue
                }
                guard let headings, let name = cells.first, !name.hasPrefix("---"), cells.count > countHeadings.count else { continue }
                let positions = countHeadings.compactMap { headings.firstIndex(of: $0) }
                guard positions.count == countHeadings.count else { continue }
                counts[name] = positions.map { cells[$0] }
            }
            examples.append(Example(page: page, arguments: arguments, counts: counts))
        }
        return examples
    }

    @Test("the README and docs/ mark their example tables, each with its rows")
    func marked() throws {
        let examples = try Self.examples()
        #expect(examples.count >= 3)
        #expect(examples.contains { $0.page == "README.md" }, "the README shows no marked example table")
        for example in examples { #expect(!example.counts.isEmpty, "\(example): no table rows found") }
    }

    @Test("every count in an example table is what bench computes for its arguments", arguments: try examples())
    func countsMatch(example: Example) throws {
        // Paths in the arguments are the checkout's, wherever the tests run from.
        let arguments = example.arguments.map { argument in
            FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(argument).path)
                ? Self.root.appendingPathComponent(argument).path : argument
        }
        let command = try #require(try BenchCommand.parseAndCheck(arguments) as? RunCommand)
        var results: [RunResult] = []
        for var configuration in try command.configurations() {
            configuration.repetitions = 1
            configuration.warmup = 0
            results += try Benchmark(configuration: configuration).run().results
        }
        for (strategy, cells) in example.counts.sorted(by: { $0.key < $1.key }) {
            let result = try #require(results.first { $0.strategy == strategy }, "\(example): bench ran no \(strategy)")
            let computed = [
                result.records, result.uniqueRecords, result.measurement.counts.fetches, result.measurement.counts.statements,
                result.measurement.counts.transactions,
            ].map(SummaryTable.count)
            #expect(cells == computed, "\(example), \(strategy): the page says \(cells), bench computes \(computed); run scripts/readme-examples")
        }
        #expect(Set(example.counts.keys) == Set(results.map(\.strategy)), "\(example): the table's strategies")
    }
}
