import Foundation
import ImportBenchCore
import ImportBenchReport
import Testing

/// How often CI's timing gate catches a real slowdown: naive made a quarter slower, in the tests
/// only, measured as `bench gate` measures (the whole ci preset, one repetition at a time, the
/// unchanged build and the slowed one in turn, order alternating) and judged side by side under
/// naive's row. Both builds run in this process, as a test's strategy cannot run in the binary. A
/// benchmark, not a test of timings: it runs only when asked (`IMPORTBENCH_GATE_EXPERIMENT=20`, see
/// scripts/timing-gate) and prints what it found.
@Suite("Timing gate experiment")
struct TimingGateExperiment {
    static let comparisons = ProcessInfo.processInfo.environment["IMPORTBENCH_GATE_EXPERIMENT"].flatMap(Int.init)

    @Test("a 25 % slower naive is flagged a regression under naive's row", .enabled(if: comparisons != nil, "set IMPORTBENCH_GATE_EXPERIMENT=N to run"))
    func slowdownCaught() throws {
        let comparisons = Self.comparisons ?? 0
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let ciRun = try #require(root.appendingPathComponent(".ci/run").path.nonEmptyContents?.firstMatch(of: /repetitions=(\d+)/))
        let repetitions = try #require(Int(ciRun.1))
        // The whole preset, as CI runs it, with naive slowed in the chat run alone: every other row
        // is compared too, so the test's correction for many comparisons is CI's.
        let unchanged = BenchmarkPreset.ci.configurations.map { configuration in
            var configuration = configuration
            configuration.repetitions = 1
            return configuration
        }
        let slowed = unchanged.map { configuration in
            var configuration = configuration
            if configuration.spec.scenario == ChatScenario().reference {
                configuration.strategies = configuration.strategies.map { $0.name == NaiveStrategy.name ? QuarterSlowerNaive.self as any MeasuredMethod.Type : $0 }
            }
            return configuration
        }
        let folder = try TemporaryFolder()
        var caught = 0
        var otherRegressions = 0
        var pairedCaught = 0
        var pairedOthers = 0
        for index in 1...comparisons {
            var files: (base: [String], slow: [String]) = ([], [])
            for repetition in 1...repetitions {
                for side in repetition % 2 == 1 ? ["base", "slow"] : ["slow", "base"] {
                    let results = try (side == "base" ? unchanged : slowed).flatMap { try Benchmark(configuration: $0).run().results }
                    #expect(results.allSatisfy { $0.valid })
                    let path = folder.url.appendingPathComponent("\(side)-\(index)-\(repetition).csv").path
                    try CSVReport.write(results, to: path)
                    if side == "base" { files.base.append(path) } else { files.slow.append(path) }
                }
            }
            let comparison = try BaselineComparison(baselinePaths: files.base, currentPaths: files.slow, scope: .sideBySide)
            let isSlowed = { (change: BaselineComparison.Change) in
                change.key.scenario == "chat" && change.key.strategy == NaiveStrategy.name && change.metric == ResultTable.cpuSeconds
            }
            let time = comparison.changes.first(where: isSlowed)
            if time?.isRegression == true { caught += 1 }
            otherRegressions += comparison.changes.filter { $0.isRegression && !isSlowed($0) }.count
            let paired = try Self.pairedVerdicts(base: files.base, current: files.slow)
            if paired.caught { pairedCaught += 1 }
            pairedOthers += paired.others
            print("comparison \(index): chat naive " + (time.map { "\($0.difference) \($0.verdictWord)" } ?? "no change")
                + "; other regressions so far \(otherRegressions); paired: \(paired.description), other regressions so far \(pairedOthers)")
        }
        print("paired (signed-rank over the interleaved pairs, Holm over the same timings): caught in \(pairedCaught) of \(comparisons); \(pairedOthers) regressions in other rows")
        print("timing gate experiment: a 25 % slower naive flagged a regression in \(caught) of \(comparisons) comparisons "
            + "(\(repetitions) repetitions a side, interleaved, the whole ci preset compared side by side); \(otherRegressions) regressions flagged in other rows")
    }
}

extension TimingGateExperiment {
    /// The same files judged pair by pair (repetition i of each side): the signed-rank test on the
    /// logarithms of every timing, Holm over all of them, a change counted when significant and
    /// beyond the default tolerance. Whether chat naive's CPU time was caught, and how many other
    /// timings were flagged worse.
    static func pairedVerdicts(base: [String], current: [String]) throws -> (caught: Bool, others: Int, description: String) {
        let metrics = ["wall_s", "peak_rss_bytes", "allocated_bytes"]
        let before = try ResultTable(paths: base, columns: metrics)
        let after = try ResultTable(paths: current, columns: metrics)
        var tests: [(key: ResultTable.Key, metric: String, tolerance: Double, test: RankTest)] = []
        for key in Set(before.rows.keys).intersection(after.rows.keys) {
            for (metric, tolerance) in [(ResultTable.cpuSeconds, 0.15), ("peak_rss_bytes", 0.25), ("allocated_bytes", 0.10)] {
                guard let a = before.samples[key]?[metric], let b = after.samples[key]?[metric], a.allSatisfy({ $0 > 0 }), b.allSatisfy({ $0 > 0 }),
                    let test = RankTest(pairedBaseline: a.map { log($0) }, current: b.map { log($0) })
                else { continue }
                tests.append((key, metric, tolerance, test))
            }
        }
        let adjusted = RankTest.holmAdjusted(tests.map(\.test.p))
        var caught = false
        var others = 0
        var description = "chat naive not tested"
        for (index, entry) in tests.enumerated() {
            let change = exp(entry.test.shift) - 1
            let flagged = adjusted[index] < BaselineComparison.alpha && change > entry.tolerance
            let isSlowed = entry.key.scenario == "chat" && entry.key.strategy == NaiveStrategy.name && entry.metric == ResultTable.cpuSeconds
            if isSlowed {
                caught = flagged
                description = String(format: "%+.1f%% [%+.1f%%, %+.1f%%], p %.2g", change * 100, (exp(entry.test.lower) - 1) * 100, (exp(entry.test.upper) - 1) * 100, adjusted[index])
                    + (flagged ? " regression" : " not flagged")
            } else if flagged {
                others += 1
            }
        }
        return (caught, others, description)
    }
}

/// Naive's work, then a quarter of the time that work took spent spinning, batch by batch: the
/// slowdown a careless change would make. Named naive, so its rows meet naive's in the baseline.
final class QuarterSlowerNaive: ImportStrategy {
    static let name = NaiveStrategy.name
    static let summary = "naive, a quarter slower (tests only)"
    static let role = NaiveStrategy.role
    private let naive: NaiveStrategy
    /// Where the work not yet matched by spinning began: decoding and the last commit count too.
    private var since = ContinuousClock.now

    init(context: StrategyContext) throws {
        naive = try NaiveStrategy(context: context)
    }

    func write(_ batch: RecordBatch, pass: Int) throws {
        try naive.write(batch, pass: pass)
        let worked = ContinuousClock.now - since
        let until = ContinuousClock.now + worked / 4
        while ContinuousClock.now < until {}
        since = ContinuousClock.now
    }

    func finishPass(_ pass: Int) throws { try naive.finishPass(pass) }
    func resume(atPass pass: Int) throws { try naive.resume(atPass: pass) }
    var transactionScope: TransactionScope { naive.transactionScope }
}

extension String {
    /// The file's text at this path, or nil.
    fileprivate var nonEmptyContents: String? { try? String(contentsOfFile: self, encoding: .utf8) }
}
