import Foundation
import ImportBenchCore
import ImportBenchExpectations
import ImportBenchPayload
import ImportBenchReport
import ImportBenchStrategies
import Testing

/// How often a ratio rule catches a real slowdown, and how often unchanged code breaks it: naive
/// beside a copy of itself under another name, the rule `naive-copy.wall_s <= 1.1 * naive.wall_s`
/// (and the same on `cpu_s`), judged as `bench run --expect` judges it, once with the copy unchanged (true ratio 1) and once
/// with it a quarter slower (1.25). A benchmark, not a test of timings: it runs only when asked
/// (`scripts/expectation-experiment N [--load]`) and prints what it found; docs/ci.md quotes it.
@Suite("Expectation experiment")
struct ExpectationExperiment {
    static let trials = ProcessInfo.processInfo.environment["IMPORTBENCH_EXPECTATION_EXPERIMENT"].flatMap(Int.init)
    /// The same rule on wall time and on CPU time (user plus system, what the gate judges).
    static let rules = ["naive-copy.wall_s <= 1.1 * naive.wall_s", "naive-copy.cpu_s <= 1.1 * naive.cpu_s"]

    @Test(
        "a 25 % slower copy breaks the ratio rule; an unchanged one does not",
        .enabled(if: trials != nil, "set IMPORTBENCH_EXPECTATION_EXPERIMENT=N to run"))
    func catchAndFalseAlarm() throws {
        let trials = Self.trials ?? 0
        let repetitions =
            ProcessInfo.processInfo.environment["IMPORTBENCH_EXPECTATION_EXPERIMENT_REPETITIONS"].flatMap(Int.init) ?? PairedRankTest.minimumPairs
        let rules = try Self.rules.enumerated().map { try ExpectationRule(parsing: $1, origin: .option(index: $0 + 1)) }
        var tally: [String: [ExpectationVerdict.Outcome: Int]] = [:]
        var ratios: [String: [Double]] = [:]
        for trial in 1...trials {
            // Alternate which side runs first, so a drift of the machine favours neither.
            for side in trial % 2 == 1 ? ["unchanged", "slowed"] : ["slowed", "unchanged"] {
                let copy = side == "slowed" ? ImportMethod(SlowerNaiveCopy.self) : ImportMethod(NaiveCopy.self)
                let configuration = BenchmarkConfiguration(
                    spec: RunSpec(scenario: ChatScenario().source, payload: .generated(scale: try #require(Scale(factor: 0.1)), seed: UInt64(trial))),
                    strategies: [ImportMethod(NaiveStrategy.self), copy], repetitions: repetitions)
                let results = try Benchmark(configuration: configuration).run().results
                #expect(results.allSatisfy { $0.valid })
                for verdict in ExpectationJudge.judge(rules, results) {
                    let key = "\(side), \(verdict.rule.left.column)"
                    tally[key, default: [:]][verdict.outcome, default: 0] += 1
                    ratios[key, default: []].append(verdict.measured)
                    print(
                        "trial \(trial) \(key): \(verdict.outcome.rawValue), ratio \(String(format: "%.3f", verdict.measured))"
                            + (verdict.interval.map { String(format: " (%.3f-%.3f)", $0.lowerBound, $0.upperBound) } ?? ""))
                }
            }
        }
        for side in tally.keys.sorted() {
            let counts = tally[side] ?? [:]
            let sorted = (ratios[side] ?? []).sorted()
            print(
                "expectation experiment, \(side): \(counts[.broken] ?? 0) broken, \(counts[.undecided] ?? 0) undecided, \(counts[.held] ?? 0) held of \(trials)"
                    + " (\(repetitions) repetitions; ratios \(String(format: "%.3f-%.3f", sorted.first ?? 0, sorted.last ?? 0)))")
        }
    }
}

/// naive under another name: what a rule compares naive with when nothing changed.
final class NaiveCopy: ImportStrategy, MeasuredMethod {
    static let name = "naive-copy"
    static let summary = "naive under another name (tests only)"
    private let naive: NaiveStrategy

    init(context: StrategyContext) throws { naive = try NaiveStrategy(context: context) }
    func write(_ batch: RecordBatch, pass: Int) throws { try naive.write(batch, pass: pass) }
    func finishPass(_ pass: Int) throws { try naive.finishPass(pass) }
}

/// naive under another name, a quarter slower: it spins for a quarter of the time its work took
/// since the last batch (decoding included), as `QuarterSlowerNaive` does for the gate's experiment.
final class SlowerNaiveCopy: ImportStrategy, MeasuredMethod {
    static let name = "naive-copy"
    static let summary = "naive under another name, a quarter slower (tests only)"
    private let naive: QuarterSlowerNaive

    init(context: StrategyContext) throws { naive = try QuarterSlowerNaive(context: context) }
    func write(_ batch: RecordBatch, pass: Int) throws { try naive.write(batch, pass: pass) }
    func finishPass(_ pass: Int) throws { try naive.finishPass(pass) }
}
