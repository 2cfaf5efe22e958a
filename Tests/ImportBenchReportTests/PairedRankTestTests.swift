import Foundation
import ImportBenchReport
import Testing

/// The signed-rank test the gate's interleaved pairs call for: exact p, the Hodges-Lehmann
/// estimate, and why pairing matters when the machine's state moves both sides of a pair.
@Suite("Paired rank test")
struct PairedRankTestTests {
    @Test("p and estimate as SciPy's exact Wilcoxon test and the median Walsh average give them")
    func matchesReference() throws {
        // scipy.stats.wilcoxon(d, method="exact"): statistic 8, p 0.01220703125; median Walsh average 1.075.
        let differences = [0.8, -0.3, 1.9, 2.4, -0.6, 1.1, 0.25, 3.0, 1.45, -0.05, 0.7, 2.2]
        let test = try #require(RankTest(pairedBaseline: differences.map { _ in 0 }, current: differences))
        #expect(abs(test.p - 0.01220703125) < 1e-12)
        #expect(abs(test.shift - 1.075) < 1e-12)
        #expect(test.lower < test.shift && test.shift < test.upper && test.lower > 0)
    }

    @Test("every pair one way gives the smallest p there is; too few pairs or unequal sides give no test", arguments: [3, 6, 12])
    func extremes(pairs: Int) throws {
        let base = (0..<pairs).map { Double($0) }
        let test = try #require(RankTest(pairedBaseline: base, current: base.map { $0 + 0.2 + 0.01 * $0 }))
        #expect(abs(test.p - RankTest.smallestPairedP(pairs: pairs)) < 1e-12)
        #expect(RankTest(pairedBaseline: [1, 2], current: [2, 3]) == nil)
        #expect(RankTest(pairedBaseline: base, current: base.dropLast() + []) == nil)
    }

    @Test("a 25 % slowdown under drift that both sides of each pair share: the pairs show it, the two samples hide it")
    func driftSharedByPairs() throws {
        // Twelve pairs whose machine state wanders by up to 100 %, the current side 25 % slower
        // within each pair, give or take 1 %.
        let drift = [0.0, 0.5, -0.3, 0.8, 0.1, -0.2, 1.0, 0.3, -0.35, 0.6, 0.05, 0.9]
        let noise = [0.01, -0.01, 0.005, 0, -0.005, 0.01, -0.01, 0.0, 0.005, -0.005, 0.01, 0]
        let base = drift.map { log(1 + $0) }
        let current = zip(base, noise).map { $0 + log(1.25) + $1 }
        let paired = try #require(RankTest(pairedBaseline: base, current: current))
        let unpaired = try #require(RankTest(baseline: base, current: current))
        #expect(paired.p < 0.001 && abs(exp(paired.shift) - 1.25) < 0.01, "\(paired)")
        #expect(unpaired.p > 0.05, "\(unpaired)")
    }
}
