import Foundation
import ImportBenchCore
import Testing

@testable import ImportBenchReport

@Suite("Rank test")
struct RankTestTests {
    @Test("separated samples of five: the exact p is 2 / C(10, 5), the shift the median difference, the interval from the U table")
    func exactSmallSamples() throws {
        let test = try #require(RankTest(baseline: [1, 2, 3, 4, 5], current: [6, 7, 8, 9, 10]))
        #expect(abs(test.p - 2.0 / 252) < 1e-12)
        #expect(test.shift == 5)
        // P(U <= 2) = 4/252 <= 0.025 < P(U <= 3) = 7/252: the 3rd smallest and 3rd largest of the 25 differences.
        #expect(test.lower == 2)
        #expect(test.upper == 8)
    }

    @Test("the exact distribution sums to one and is symmetric", arguments: [(3, 4), (5, 5), (7, 9)])
    func distribution(n: Int, m: Int) throws {
        let distribution = try #require(UDistribution(n: n, m: m))
        #expect(distribution.cumulative(n * m) == 1)
        for u in 0..<(n * m) {
            let lowerTail = distribution.cumulative(u)
            let upperTail = 1 - distribution.cumulative(n * m - u - 1)
            #expect(abs(lowerTail - upperTail) < 1e-12, "u \(u)")
        }
    }

    @Test("interleaved samples are no evidence of a change; fewer than three values make no test")
    func noChange() throws {
        let test = try #require(RankTest(baseline: [1, 3, 5, 7, 9], current: [2, 4, 6, 8, 10]))
        #expect(test.p > 0.5)
        #expect(test.lower < 0 && test.upper > 0)
        #expect(RankTest(baseline: [1, 2], current: [3, 4, 5]) == nil)
    }

    @Test("ties and large samples take the normal approximation, which agrees with the exact test where both apply")
    func normalApproximation() throws {
        let tied = try #require(RankTest(baseline: [1, 1, 2, 2, 3, 3], current: [3, 3, 4, 4, 5, 5]))
        #expect(tied.p > 0 && tied.p < 0.02)
        #expect(tied.shift == 2)
        let baseline = (0..<60).map { Double($0) }
        let large = try #require(RankTest(baseline: baseline, current: baseline.map { $0 + 30 }))
        #expect(large.p < 1e-6)
        #expect(large.shift == 30)
        #expect(large.lower < 30 && large.upper > 30)
    }

    @Test("Holm's adjustment: each p times the number still in play, never below an earlier one")
    func holm() {
        #expect(RankTest.holmAdjusted([0.01, 0.04, 0.03]) == [0.03, 0.06, 0.06])
        #expect(RankTest.holmAdjusted([0.5, 0.9]) == [1, 1])
        #expect(RankTest.holmAdjusted([]) == [])
    }
}

@Suite("bench compare: timings from repetitions")
struct TimingVerdictTests {
    /// Seven repetitions of naive, prewarm and the ceiling, each with a C reference time; `factor`
    /// multiplies prewarm's wall time, `jitter` spreads every repetition by up to that share.
    private func results(prewarmFactor factor: Double = 1, jitter: Double = 0.03, seed: UInt64, repetitions: Int = 7) -> [RunResult] {
        var generator = SeededGenerator(seed: seed)
        return (1...repetitions).flatMap { repetition in
            [("naive", 2.0), ("prewarm", 1.0 * factor), ("ceiling", 0.5)].map { name, wall in
                var result = sampleResult(
                    strategy: name, wall: wall * (1 + Double.random(in: -jitter...jitter, using: &generator)), repetition: repetition)
                result.cReferenceSeconds = 0.4 * (1 + Double.random(in: -jitter...jitter, using: &generator))
                return result
            }
        }
    }

    private func compare(
        _ baseline: [RunResult], _ current: [RunResult], tolerances: [String: Double] = BaselineComparison.defaultTolerances
    ) throws -> BaselineComparison {
        let folder = try TemporaryFolder()
        let base = folder.url.appendingPathComponent("base.csv").path
        let now = folder.url.appendingPathComponent("now.csv").path
        try CSVReport.write(baseline, to: base)
        try CSVReport.write(current, to: now)
        return try BaselineComparison(baselinePath: base, currentPath: now, tolerances: tolerances)
    }

    @Test("a strategy 25 % slower is a regression, judged on wall time over the C reference, with its interval and p")
    func slowerIsFlagged() throws {
        let comparison = try compare(results(seed: 1), results(prewarmFactor: 1.25, seed: 2))
        #expect(comparison.verdict == .regression)
        let change = try #require(comparison.changes.first { $0.key.strategy == "prewarm" })
        #expect(change.metric == ResultTable.wallPerCReference)
        let test = try #require(change.test)
        #expect(test.change > 0.15 && test.change < 0.35)
        #expect(test.lower > 0.10 && test.upper > test.change)
        #expect(test.p < 0.05)
        #expect(comparison.changes.allSatisfy { $0.key.strategy == "prewarm" })
        #expect(comparison.markdown.contains("| regression |"))
    }

    @Test("the same code measured again is unchanged: repetitions that scatter alike give no verdict", arguments: [3 as UInt64, 5, 7])
    func sameDistribution(seed: UInt64) throws {
        let comparison = try compare(results(seed: seed), results(seed: seed + 100))
        #expect(comparison.verdict == .unchanged, "\(comparison.markdown)")
        #expect(comparison.timingsTested > 0)
    }

    @Test("a move beyond the tolerance in widely scattered repetitions is within noise, not a regression")
    func withinNoise() throws {
        // Nine repetitions spread from 0.6 to 2.2 s, then the same spread 20 % slower: the shift is
        // there, the overlap too large to prove it.
        let spread = [0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0, 2.2]
        func scattered(_ factor: Double) -> [RunResult] {
            results(jitter: 0, seed: 1, repetitions: spread.count).map { result in
                var result = result
                if result.strategy == "prewarm" { result.measurement.wallSeconds = spread[result.repetition - 1] * factor }
                return result
            }
        }
        let comparison = try compare(scattered(1), scattered(1.2))
        #expect(comparison.verdict == .unchanged, "\(comparison.markdown)")
        let change = try #require(comparison.changes.first { $0.key.strategy == "prewarm" }, "\(comparison.markdown)")
        #expect(change.test?.isWithinNoise == true)
        #expect(comparison.markdown.contains("within noise"))
    }
}

extension TimingVerdictTests {
    @Test(
        "too few repetitions for a test to prove anything (3 against 3): the medians are held to the tolerance, and shown",
        arguments: [3, 1])
    func fewRepetitions(repetitions: Int) throws {
        let comparison = try compare(results(seed: 21, repetitions: repetitions), results(prewarmFactor: 1.5, seed: 22, repetitions: repetitions))
        #expect(comparison.verdict == .regression)
        let change = try #require(comparison.changes.first { $0.key.strategy == "prewarm" })
        #expect(change.test == nil)
        #expect(change.metric == ResultTable.wallPerCReference)
        let (before, after) = (try #require(Double(change.baseline)), try #require(Double(change.current)))
        #expect(after / before > 1.35 && after / before < 1.65)
        #expect(comparison.timingsByMedians > 0)
        #expect(comparison.timingsTested == 0)
        #expect(comparison.markdown.contains("too few repetitions"))
    }

    @Test("the smallest p a test can give: 2 / C(n + m, n), so 3 against 3 never passes 0.05")
    func smallestP() {
        #expect(abs(RankTest.smallestP(baseline: 3, current: 3) - 0.1) < 1e-12)
        #expect(abs(RankTest.smallestP(baseline: 9, current: 9) - 2.0 / 48_620) < 1e-15)
        #expect(RankTest.smallestP(baseline: 2, current: 9) == 1)
    }
}

extension TimingVerdictTests {
    /// As `results`, with CPU times: the imports' CPU scatters by `jitter`, the C reference's
    /// replay, a few milliseconds, by `referenceJitter`.
    private func cpuResults(
        prewarmFactor factor: Double = 1, jitter: Double = 0.01, referenceJitter: Double = 0.08, seed: UInt64, repetitions: Int = 9
    )
        -> [RunResult]
    {
        var generator = SeededGenerator(seed: seed)
        return (1...repetitions).flatMap { repetition in
            let reference = 0.003 * (1 + Double.random(in: -referenceJitter...referenceJitter, using: &generator))
            return [("naive", 0.04), ("prewarm", 0.036 * factor), ("ceiling", 0.025)].map { name, cpu in
                var result = sampleResult(strategy: name, wall: cpu * 1.1, repetition: repetition)
                result.measurement.cpuUserSeconds = cpu * (1 + Double.random(in: -jitter...jitter, using: &generator))
                result.measurement.cpuSystemSeconds = 0
                result.cReferenceSeconds = reference * 1.05
                result.cReferenceCPUSeconds = reference
                return result
            }
        }
    }

    @Test("time is each repetition's CPU time over the median of the run's C reference CPU times: one slow replay moves no repetition")
    func cpuOverMedianReference() throws {
        var results = cpuResults(referenceJitter: 0, seed: 31)
        for index in results.indices where results[index].repetition == 4 { results[index].cReferenceCPUSeconds = 0.03 }
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("run.csv").path
        try CSVReport.write(results, to: path)
        let table = try ResultTable(path: path, columns: ["wall_s"])
        let naive = try #require(table.rows.keys.first { $0.strategy == "naive" })
        let ratios = try #require(table.samples[naive]?[ResultTable.cpuPerCReference])
        let expected = results.filter { $0.strategy == "naive" }.map { $0.measurement.cpuUserSeconds / 0.003 }
        #expect(ratios.count == expected.count)
        for (ratio, want) in zip(ratios, expected) { #expect(abs(ratio - want) < 1e-3 * want) }
    }

    @Test("a 25 % slower strategy is caught on CPU time with its interval near 25 %, though the C reference scatters by 8 %")
    func slowerOnCPUTime() throws {
        let comparison = try compare(cpuResults(seed: 41), cpuResults(prewarmFactor: 1.25, seed: 42))
        #expect(comparison.verdict == .regression, "\(comparison.markdown)")
        let change = try #require(comparison.changes.first { $0.key.strategy == "prewarm" && $0.metric == ResultTable.cpuPerCReference })
        let test = try #require(change.test)
        #expect(test.lower > 0.2 && test.upper < 0.3, "\(test)")
        #expect(comparison.changes.allSatisfy { $0.key.strategy == "prewarm" }, "\(comparison.markdown)")
        let unchanged = try compare(cpuResults(seed: 43), cpuResults(seed: 44))
        #expect(unchanged.verdict == .unchanged, "\(unchanged.markdown)")
    }

    @Test("a move of the size a machine's state alone made (11 %), however significant, stays under the default time tolerance")
    func machineStateShiftTolerated() throws {
        for factor in [0.88, 1.12] {
            let comparison = try compare(cpuResults(seed: 45), cpuResults(prewarmFactor: factor, seed: 46))
            #expect(comparison.verdict == .unchanged, "\(comparison.markdown)")
            // Unchanged, and still shown: the row that moved most, how far, and the tolerance it was held to.
            let largest = try #require(comparison.largestMoves.first { $0.change.metric == ResultTable.cpuPerCReference })
            let tolerance = try #require(BaselineComparison.defaultTolerances["wall_s"])
            #expect(largest.change.key.strategy == "prewarm" && largest.tolerance == tolerance)
            #expect(abs((largest.change.test?.change ?? 0) - (factor - 1)) < 0.02)
            #expect(
                comparison.markdown.contains(
                    "- \(ResultTable.cpuPerCReference): \(largest.change.key) \(largest.change.difference); tolerance \(Int(tolerance * 100))%"))
            // The move is real and significant: a tighter tolerance, asked for, judges it.
            var tighter = BaselineComparison.defaultTolerances
            tighter["wall_s"] = 0.10
            let judged = try compare(cpuResults(seed: 45), cpuResults(prewarmFactor: factor, seed: 46), tolerances: tighter)
            #expect(judged.verdict == (factor > 1 ? .regression : .improvementsOnly), "\(judged.markdown)")
        }
    }
}

extension TimingVerdictTests {
    @Test("each metric is its own family: five repetitions a side prove a slowdown among three rows' times, though nine timings are compared")
    func holmPerMetric() throws {
        // Five against five give p at best 2/252 = 0.0079: times 3 (the rows' times) under alpha,
        // times 9 (with peak RSS and allocated bytes beside them) not.
        func withMemory(_ results: [RunResult], seed: UInt64) -> [RunResult] {
            var generator = SeededGenerator(seed: seed)
            return results.map { result in
                var result = result
                result.measurement.peakRSSBytes = Int64(50_000_000 * (1 + Double.random(in: -0.02...0.02, using: &generator)))
                result.measurement.allocatedBytes = UInt64(9_000_000 * (1 + Double.random(in: -0.02...0.02, using: &generator)))
                return result
            }
        }
        let comparison = try compare(
            withMemory(cpuResults(seed: 51, repetitions: 5), seed: 52),
            withMemory(cpuResults(prewarmFactor: 1.25, seed: 53, repetitions: 5), seed: 54))
        #expect(comparison.timingsTested == 9 && comparison.timingsByMedians == 0, "\(comparison.markdown)")
        let change = try #require(comparison.changes.first { $0.key.strategy == "prewarm" && $0.metric == ResultTable.cpuPerCReference })
        let test = try #require(change.test)
        #expect(change.isRegression && abs(test.p - 3 * 2.0 / 252) < 1e-9, "\(test)")
        #expect(comparison.changes.allSatisfy(\.isRegression) && comparison.changes.count == 1, "\(comparison.markdown)")
        #expect(BaselineComparison.holmAdjustedPerMetric([("a", 0.01), ("b", 0.04), ("a", 0.03)]) == [0.02, 0.04, 0.03])
    }
}

extension TimingVerdictTests {
    @Test(
        "a burst that slowed four of the base's runs in one pass hides a 25 % slowdown; judged by each repetition's fastest of two passes, it is caught"
    )
    func fastestOfPasses() throws {
        // Twelve repetitions in two passes: repetitions 1-12 of each file are pass 1, 13-24 pass 2.
        var base = cpuResults(seed: 61, repetitions: 24)
        for index in base.indices where base[index].strategy == "prewarm" && (3...6).contains(base[index].repetition) {
            base[index].measurement.cpuUserSeconds *= 1.6
        }
        let current = cpuResults(prewarmFactor: 1.25, seed: 62, repetitions: 24)
        let folder = try TemporaryFolder()
        let (before, after) = (folder.url.appendingPathComponent("base.csv").path, folder.url.appendingPathComponent("current.csv").path)
        try CSVReport.write(base, to: before)
        try CSVReport.write(current, to: after)
        let firstPass = folder.url.appendingPathComponent("base-pass-1.csv").path
        let currentFirstPass = folder.url.appendingPathComponent("current-pass-1.csv").path
        try CSVReport.write(base.filter { $0.repetition <= 12 }, to: firstPass)
        try CSVReport.write(current.filter { $0.repetition <= 12 }, to: currentFirstPass)
        func prewarm(_ comparison: BaselineComparison) -> BaselineComparison.Change? {
            comparison.changes.first { $0.key.strategy == "prewarm" && $0.metric == ResultTable.cpuSeconds }
        }
        let onePass = try BaselineComparison(baselinePaths: [firstPass], currentPaths: [currentFirstPass], scope: .sideBySide)
        #expect(onePass.verdict == .unchanged && prewarm(onePass)?.test?.isWithinNoise == true, "\(onePass.markdown)")
        let twoPasses = try BaselineComparison(baselinePaths: [before], currentPaths: [after], scope: .sideBySide, passes: 2)
        let caught = try #require(prewarm(twoPasses)?.test, "\(twoPasses.markdown)")
        #expect(twoPasses.verdict == .regression && caught.baselineSamples == 12 && caught.lower > 0.2 && caught.upper < 0.3, "\(caught)")
    }

    @Test("the fastest of passes pairs repetition i of every pass; a series that does not divide into the passes stays as it is")
    func fastestPairsPasses() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("run.csv").path
        let walls = [5.0, 1.0, 7.0, 2.0, 6.0, 3.0]
        try CSVReport.write(walls.enumerated().map { sampleResult(strategy: "naive", wall: $1, repetition: $0 + 1) }, to: path)
        let table = try ResultTable(path: path, columns: ["wall_s"])
        let key = try #require(table.rows.keys.first)
        #expect(table.fastest(ofPasses: 2).samples[key]?["wall_s"] == [2, 1, 3])
        #expect(table.fastest(ofPasses: 3).samples[key]?["wall_s"] == [5, 1])
        #expect(table.fastest(ofPasses: 4).samples[key]?["wall_s"] == walls)
        #expect(table.fastest(ofPasses: 1).samples[key]?["wall_s"] == walls)
    }
}

/// splitmix64, so the tests' scatter is the same on every run.
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
