import Foundation
import ImportBenchCore
import ImportBenchPayload
import ImportBenchReport
import ImportBenchStrategies
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

    @Test(
        "a 25 % slower naive is flagged a regression under naive's row", .enabled(if: comparisons != nil, "set IMPORTBENCH_GATE_EXPERIMENT=N to run"))
    func slowdownCaught() throws {
        let comparisons = Self.comparisons ?? 0
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let ciRun = try #require(root.appendingPathComponent(".ci/run").path.nonEmptyContents)
        let ciRepetitions = try #require(ciRun.firstMatch(of: /repetitions=(\d+)/).flatMap { Int($0.1) })
        let ciPasses = try #require(ciRun.firstMatch(of: /passes=(\d+)/).flatMap { Int($0.1) })
        // More runs a side than CI's may be made (IMPORTBENCH_GATE_EXPERIMENT_REPETITIONS): each rule
        // judges the first of them, exactly what a gate of its repetitions and passes would see.
        let repetitions = ProcessInfo.processInfo.environment["IMPORTBENCH_GATE_EXPERIMENT_REPETITIONS"].flatMap(Int.init) ?? ciRepetitions * ciPasses
        let rules = Self.rules(repetitions: repetitions, ci: ciRepetitions)
        // The whole preset, as CI runs it, with naive slowed in the chat run alone: every other row
        // is compared too, so the test's correction for many comparisons is CI's.
        let unchanged = BenchmarkPreset.ci.configurations().map { configuration in
            var configuration = configuration
            configuration.repetitions = 1
            return configuration
        }
        let slowed = unchanged.map { configuration in
            var configuration = configuration
            if configuration.spec.scenario == ChatScenario().source {
                configuration.strategies = configuration.strategies.map { $0.name == NaiveStrategy.name ? ImportMethod(QuarterSlowerNaive.self) : $0 }
            }
            return configuration
        }
        // IMPORTBENCH_GATE_EXPERIMENT_KEEP=DIR keeps every repetition's CSV there, to judge other rules on them later.
        let temporary = try TemporaryFolder()
        let kept = ProcessInfo.processInfo.environment["IMPORTBENCH_GATE_EXPERIMENT_KEEP"].map { URL(fileURLWithPath: $0) }
        let folder = kept ?? temporary.url
        var caught = Array(repeating: 0, count: rules.count)
        var others = Array(repeating: 0, count: rules.count)
        var unchangedMoves = Array(repeating: [Double](), count: rules.count)
        for index in 1...comparisons {
            var files: (base: [String], slow: [String]) = ([], [])
            for repetition in 1...repetitions {
                for side in repetition % 2 == 1 ? ["base", "slow"] : ["slow", "base"] {
                    let results = try (side == "base" ? unchanged : slowed).flatMap { try Benchmark(configuration: $0).run().results }
                    #expect(results.allSatisfy { $0.valid })
                    let path = folder.appendingPathComponent("\(side)-\(index)-\(repetition).csv").path
                    try CSVReport.write(results, to: path)
                    if side == "base" { files.base.append(path) } else { files.slow.append(path) }
                }
            }
            var line = "comparison \(index):"
            for (number, rule) in rules.enumerated() {
                let runs = rule.repetitions * rule.passes
                let comparison = try BaselineComparison(
                    baselinePaths: Array(files.base.prefix(runs)), currentPaths: Array(files.slow.prefix(runs)), scope: .sideBySide,
                    passes: rule.passes)
                let time = comparison.changes.first(where: Self.isSlowed)
                if time?.isRegression == true { caught[number] += 1 }
                others[number] += comparison.changes.filter { $0.isRegression && !Self.isSlowed($0) }.count
                let unchanged = try Self.largestUnchangedMove(files.base, rule: rule)
                unchangedMoves[number].append(abs(unchanged))
                line +=
                    "\n  \(rule.name): chat naive " + (time.map { "\($0.difference) \($0.verdictWord)" } ?? "no change")
                    + String(format: "; unchanged halves, largest move %+.1f%%", unchanged * 100)
            }
            print(line)
        }
        for (number, rule) in rules.enumerated() {
            print(
                "timing gate experiment, \(rule.name): a 25 % slower naive flagged a regression in \(caught[number]) of \(comparisons) comparisons "
                    + "(interleaved, the whole ci preset compared side by side); \(others[number]) regressions flagged in other rows; "
                    + String(
                        format: "unchanged code, odd repetitions against even: largest move of a row's median, median %.1f%%, at most %.1f%%",
                        median(unchangedMoves[number]) * 100, (unchangedMoves[number].max() ?? 0) * 100))
        }
    }
}

extension TimingGateExperiment {
    /// One way of judging the same files: the first `repetitions * passes` runs of each side, each
    /// repetition judged by its fastest pass.
    struct Rule {
        let repetitions: Int
        let passes: Int
        var name: String { "\(repetitions) a side" + (passes > 1 ? ", fastest of \(passes) passes" : ", one pass") }
    }

    /// CI's repetitions in one pass and in as many passes as the runs allow; then one pass of every
    /// multiple of 4 above CI's repetitions up to the runs made (the same runs' worth, unpaired).
    static func rules(repetitions runs: Int, ci: Int) -> [Rule] {
        let passes = (1...max(1, runs / ci)).map { Rule(repetitions: min(ci, runs), passes: $0) }
        return passes + stride(from: ci + 4, through: runs, by: 4).map { Rule(repetitions: $0, passes: 1) }
    }

    /// Unchanged code against itself, as the rule reads it: the base's odd repetitions against its
    /// even ones (each the fastest of its passes), and the largest move of a row's median CPU time.
    /// How far apart two halves of one build come on their own: the scatter a rule leaves.
    static func largestUnchangedMove(_ base: [String], rule: Rule) throws -> Double {
        let runs = Array(base.prefix(rule.repetitions * rule.passes))
        func half(_ parity: Int) -> [String] {
            (0..<rule.passes).flatMap { pass in stride(from: parity, to: rule.repetitions, by: 2).map { runs[pass * rule.repetitions + $0] } }
        }
        let odd = try ResultTable(paths: half(0), columns: []).fastest(ofPasses: rule.passes)
        let even = try ResultTable(paths: half(1), columns: []).fastest(ofPasses: rule.passes)
        var largest = 0.0
        for (key, series) in odd.samples {
            guard let a = series[ResultTable.cpuSeconds], let b = even.samples[key]?[ResultTable.cpuSeconds] else { continue }
            let move = median(b) / median(a) - 1
            if abs(move) > abs(largest) { largest = move }
        }
        return largest
    }

    /// Chat naive's CPU time: the timing the experiment slowed.
    static func isSlowed(_ change: BaselineComparison.Change) -> Bool {
        change.key.scenario == "chat" && change.key.strategy == NaiveStrategy.name && change.metric == ResultTable.cpuSeconds
    }
}

/// Naive's work, then a quarter of the time that work took spent spinning, batch by batch: the
/// slowdown a careless change would make. Named naive, so its rows meet naive's in the baseline.
final class QuarterSlowerNaive: ImportStrategy, MeasuredMethod {
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

/// The middle value (the mean of the two middle ones), 0 for none.
private func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

extension String {
    /// The file's text at this path, or nil.
    fileprivate var nonEmptyContents: String? { try? String(contentsOfFile: self, encoding: .utf8) }
}
