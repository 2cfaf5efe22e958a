import Foundation
import Testing

/// The rules this example commits (`expectations.yml`), and what a broken one does: grdb-naive, a
/// fetch per occurrence, stands in for an importer that regressed into one.
@Suite("The example's expectations")
struct ExpectationTests {
    static let rules = GRDBStrategyTests.package.appendingPathComponent("expectations.yml").path
    static let strategies = ["--strategy", "grdb-naive,grdb-cache,grdb-prewarm,prewarm", "--scenario", "chat", "--scale", "0.05", "--quiet"]

    private func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("grdb-expectations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = directory.appendingPathComponent("results.csv").path
        return try GRDBStrategyTests.launch(GRDBStrategyTests.binary, ["run"] + Self.strategies + arguments + ["--csv", csv])
    }

    @Test("the committed rules name what grdb-bench measures; their counts hold exactly, one repetition leaves timings undecided")
    func committed() throws {
        let (status, output) = try run(["--expectations", Self.rules, "--repetitions", "1"])
        #expect(status == 0, "\(output)")
        #expect(output.contains("expectations: 2 held, 0 broken, 3 undecided"), "\(output)")
    }

    @Test("an importer that fetches per occurrence breaks the fetch rule and a timing rule: exit 6, rule, figures and interval named")
    func broken() throws {
        let (status, output) = try run([
            "--repetitions", "6", "--expect", "grdb-naive.fetch_count <= 0.01 * records", "--expect", "grdb-naive.wall_s <= grdb-prewarm.wall_s",
        ])
        #expect(status == 6, "\(output)")
        #expect(
            output.contains("--expect #1 grdb-naive.fetch_count <= 0.01 * records [chat 0.05x batch 1000]: broken, measured 3474 against 34.73"),
            "\(output)")
        #expect(output.contains("--expect #2 grdb-naive.wall_s <= grdb-prewarm.wall_s [chat 0.05x batch 1000]: broken, measured "), "\(output)")
        #expect(output.contains(", interval "))
    }
}
