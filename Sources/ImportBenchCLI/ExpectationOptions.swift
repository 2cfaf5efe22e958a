import ArgumentParser
import Foundation
import ImportBenchCore
import ImportBenchExpectations
import ImportBenchReport

/// `--expect`, `--expectations` and `--strict`: rules between the strategies of one run, checked
/// against what the run measures before anything runs, judged after it (`ExpectationJudge`).
struct ExpectationOptions: ParsableArguments {
    @Option(
        name: .customLong("expect"),
        help: ArgumentHelp(
            "A rule the run must hold, judged after it: strategy.metric OP bound, where OP is <=, <, >= or >, and the bound a number, another strategy's metric or a fact of the run (records, unique_records), optionally after 'number *'; or growth(strategy.metric) OP number across a --scale sweep. Metrics are the CSV's numeric columns, and cpu_s (user plus system CPU time, steadier than wall_s on a busy machine). Counts are judged exactly; timings from the interleaved repetitions, with an interval (a rule it straddles is undecided; a ratio needs 6 repetitions, 8 decide better). Repeatable. Example: --expect 'mine.cpu_s <= 1.3 * prewarm.cpu_s'.",
            valueName: "rule"))
    var rules: [String] = []

    @Option(
        name: .customLong("expectations"),
        help: ArgumentHelp(
            "A YAML file of rules, a list whose entries are rules or mappings with rule: and reason:, judged as --expect's are (docs/ci.md).",
            valueName: "file"))
    var file: String?

    @Flag(help: "Fail on an undecided expectation too, not only on a broken one.")
    var strict = false

    /// Whether any rule was given.
    var isGiven: Bool { !rules.isEmpty || file != nil }

    /// The file's rules, then `--expect`'s, in order; the first that does not parse is thrown.
    func parsedRules() throws(ExpectationError) -> [ExpectationRule] {
        let fromFile = try file.map { path throws(ExpectationError) in try ExpectationFile.load(path: path) } ?? []
        var given: [ExpectationRule] = []
        for (index, text) in rules.enumerated() {
            given.append(try ExpectationRule(parsing: text, origin: .option(index: index + 1)))
        }
        return fromFile + given
    }

    /// Refuses a rule that does not parse or names a strategy none of `configurations` measures.
    func check(_ configurations: [BenchmarkConfiguration]) throws(ExpectationError) {
        try ExpectationJudge.check(parsedRules(), planned: Self.strategyNames(configurations))
    }

    /// Judges the rules, and `implied` where no given rule holds the same growth, on `results`: the
    /// verdicts, and the failure they earn (broken, or undecided under `--strict`), if any. Nothing
    /// when there is no rule.
    func judge(_ results: [RunResult], implied: [ExpectationRule] = []) throws -> (verdicts: [ExpectationVerdict], failure: CommandFailure?) {
        try judge(rows: ResultsRow.rows(of: results), implied: implied)
    }

    /// The same on results read back from CSV files (the gate's).
    func judge(rows: [ResultsRow], implied: [ExpectationRule] = []) throws -> (verdicts: [ExpectationVerdict], failure: CommandFailure?) {
        let given = try parsedRules()
        let rules =
            given
            + implied.filter { rule in !given.contains { $0.isGrowth && $0.left.description == rule.left.description } }
        guard !rules.isEmpty else { return ([], nil) }
        let verdicts = ExpectationJudge.judge(rules, rows: rows)
        let failing = verdicts.filter { $0.fails(strict: strict) }
        guard !failing.isEmpty else { return (verdicts, nil) }
        let failure = CommandFailure.expectations(ExpectationReport.failureMessage(failing))
        return (verdicts, failure)
    }

    /// Every strategy `configurations` plan, each once, in the order first planned.
    static func strategyNames(_ configurations: [BenchmarkConfiguration]) -> [String] {
        var names: [String] = []
        for name in configurations.flatMap({ $0.plannedStrategies.map(\.name) }) where !names.contains(name) { names.append(name) }
        return names
    }
}

extension RunCommand {
    /// The verdicts' table (not for JSON, whose output is the results alone) and their CSV beside
    /// the results' (`ExpectationReport.path(besideResults:)`).
    func writeExpectations(_ verdicts: [ExpectationVerdict], besideResults csvPath: String) throws {
        if format != .json { print(ExpectationReport.render(verdicts, markdown: format == .markdown), terminator: "") }
        let path = ExpectationReport.path(besideResults: csvPath)
        do {
            try ExpectationReport.csv(verdicts).write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw CommandFailure.failed("cannot write the expectations' verdicts to \(path): \(error.localizedDescription)")
        }
        FileHandle.standardError.write(Data("expectations: \(path)\n".utf8))
    }
}

extension RunCommand {
    /// The scales each configuration runs at: `--scale`'s, or with `--growth` the one asked for and
    /// that many times it.
    var sweptScales: [Scale] {
        guard let growth else { return scenarioOptions.resolvedScales }
        let scale = scenarioOptions.resolvedScale
        return [scale, Scale(factor: scale.factor * growth.factor) ?? scale]
    }

    /// `--growth`'s rules: no planned strategy's fetches or statements grow faster than the payload.
    func growthRules(_ configurations: [BenchmarkConfiguration]) -> [ExpectationRule] {
        guard growth != nil else { return [] }
        return ExpectationOptions.strategyNames(configurations).flatMap { name in
            ["fetch_count", "statement_count"].map { ExpectationRule.linearGrowth(of: name, column: $0) }
        }
    }

    /// `--growth` with what it cannot go with.
    func validateGrowth() throws {
        guard growth != nil else { return }
        if payload != nil {
            throw ValidationError("--growth scales the payload, and --payload's size is fixed: use --from FILE to scale a recorded sample")
        }
        if scenarioOptions.resolvedScales.count > 1 {
            throw ValidationError("--growth makes the scale sweep itself: give one --scale, or a list without --growth")
        }
    }
}
