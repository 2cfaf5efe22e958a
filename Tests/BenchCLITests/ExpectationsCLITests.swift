import Foundation
import Testing

@testable import ImportBenchCLI

/// `--expect` and `--expectations` through the built binary: the exit statuses CI sees.
@Suite("bench run --expect")
struct ExpectationsCLITests {
    static let small = ["run", "--scenario", "chat", "--scale", "0.02", "--strategy", "naive,prewarm", "--quiet", "--no-isolate"]

    @Test("rules that hold: exit 0, a row each in the table and in the verdicts' CSV beside the results")
    func held() throws {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = directory.appendingPathComponent("r.csv").path
        let rules = directory.appendingPathComponent("rules.yml").path
        try Data("- rule: prewarm.fetch_count <= 0.02 * records\n  reason: one IN per chunk\n".utf8).write(to: URL(fileURLWithPath: rules))
        let (status, output) = try IsolatedRunTests.bench(
            Self.small + ["--csv", csv, "--expectations", rules, "--expect", "prewarm.statement_count <= naive.statement_count"])
        #expect(status == 0, "\(output)")
        #expect(output.contains("expectations: 2 held, 0 broken, 0 undecided"))
        let verdicts = try String(contentsOfFile: directory.appendingPathComponent("r.expectations.csv").path, encoding: .utf8)
        #expect(verdicts.split(separator: "\r\n").count == 3)
        #expect(verdicts.contains("one IN per chunk"))
    }

    @Test("a broken rule: exit 6, the rule, both sides' figures and the interval named")
    func broken() throws {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = directory.appendingPathComponent("r.csv").path
        let (status, output) = try IsolatedRunTests.bench(
            Self.small + [
                "--csv", csv, "--repetitions", "6", "--expect", "naive.fetch_count <= 0.01 * records", "--expect",
                "naive.wall_s <= 0.01 * prewarm.wall_s",
            ])
        #expect(status == 6, "\(output)")
        #expect(output.contains("2 expectations not held"))
        #expect(output.contains("--expect #1 naive.fetch_count <= 0.01 * records [chat 0.02x batch 1000]: broken, measured "))
        #expect(output.contains("--expect #2 naive.wall_s <= 0.01 * prewarm.wall_s"))
        #expect(output.contains("against 0.01, interval "))
    }

    @Test("bench report judges rules on the files it reads: a table of the page, exit 6 once it is written when one breaks")
    func report() throws {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = directory.appendingPathComponent("r.csv").path
        let page = directory.appendingPathComponent("report.html").path
        let (ran, log) = try IsolatedRunTests.bench(Self.small + ["--csv", csv])
        #expect(ran == 0, "\(log)")
        let (held, output) = try IsolatedRunTests.bench(["report", csv, "--out", page, "--expect", "prewarm.fetch_count <= naive.fetch_count"])
        #expect(held == 0, "\(output)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("<h2>Expectations</h2>") && html.contains("<td>held</td><td>prewarm.fetch_count &lt;= naive.fetch_count</td>"))
        let (broken, text) = try IsolatedRunTests.bench(["report", csv, "--out", page, "--expect", "naive.fetch_count <= 0.01 * records"])
        #expect(broken == 6, "\(text)")
        #expect(try String(contentsOfFile: page, encoding: .utf8).contains("<td>broken</td>"))
        let (refused, message) = try IsolatedRunTests.bench(["report", csv, "--out", page, "--expect", "upsert.wall_s <= 2"])
        #expect(refused == 64 && message.contains("the run measures no strategy 'upsert'"), "\(message)")
    }

    @Test(
        "a rule that does not parse or names a strategy the run lacks: exit 64 before anything runs, rule and column named",
        arguments: [
            ("naive.wall_s =< 2", "--expect #1 'naive.wall_s =< 2' at column 14: expected one of <=, <, >=, >"),
            ("upsert.wall_s <= 2", "--expect #1 'upsert.wall_s <= 2' at column 1: the run measures no strategy 'upsert'"),
        ])
    func refused(rule: String, message: String) throws {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = directory.appendingPathComponent("r.csv").path
        let (status, output) = try IsolatedRunTests.bench(Self.small + ["--csv", csv, "--expect", rule])
        #expect(status == 64)
        #expect(output.contains(message), "\(output)")
        #expect(!FileManager.default.fileExists(atPath: csv))
    }
}

/// `--growth FACTOR`: the scale asked for and that many times it, every count held to linear growth.
@Suite("bench run --growth")
struct GrowthOptionTests {
    @Test("runs the scale and FACTOR times it, and implies a linear-growth rule per strategy and count")
    func sweep() throws {
        let command = try #require(
            try BenchCommand.parseAndCheck(["run", "--scenario", "chat", "--scale", "0.5", "--growth", "2x", "--strategy", "naive"]) as? RunCommand)
        let configurations = try command.configurations()
        #expect(configurations.map { $0.spec.payload.scaleLabel } == ["0.5x", "1x"])
        #expect(
            command.growthRules(configurations).map(\.text) == [
                "growth(naive.fetch_count) <= 1.05", "growth(naive.statement_count) <= 1.05", "growth(ceiling.fetch_count) <= 1.05",
                "growth(ceiling.statement_count) <= 1.05",
            ])
    }

    @Test(
        "is refused where it cannot scale the payload, or beside a sweep of its own",
        arguments: [["--growth", "1x"], ["--growth", "2x", "--payload", "day.json"], ["--growth", "2x", "--scale", "1x,2x"]])
    func refused(arguments: [String]) {
        #expect {
            try BenchCommand.parseAndCheck(["run", "--scenario", "chat"] + arguments)
        } throws: { error in
            "\(error)".contains("--growth")
        }
    }

    @Test("a count that grows faster than the payload breaks the implied rule; a rule of one's own on it takes its place")
    func implied() throws {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = directory.appendingPathComponent("r.csv").path
        let base = ["run", "--scenario", "chat", "--scale", "0.02", "--growth", "2x", "--strategy", "naive", "--quiet", "--no-isolate", "--csv", csv]
        let (status, output) = try IsolatedRunTests.bench(base)
        #expect(status == 0, "\(output)")
        #expect(output.contains("expectations: 4 held, 0 broken, 0 undecided"), "\(output)")
        let (stricter, text) = try IsolatedRunTests.bench(base + ["--force", "--expect", "growth(naive.statement_count) <= 0.5"])
        #expect(stricter == 6, "\(text)")
        #expect(text.contains("expectations: 3 held, 1 broken, 0 undecided"), "\(text)")
    }
}
