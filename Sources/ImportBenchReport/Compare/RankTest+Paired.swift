import Foundation

extension RankTest {
    /// The Wilcoxon signed-rank test on paired values, with the Hodges-Lehmann estimate (the
    /// median Walsh average) and its interval: for repetitions run in pairs, base then current
    /// side by side, where what a pair shares (the machine's state at that moment) cancels in
    /// `current[i] - baseline[i]`. Exact: the distribution of the signed ranks' sum is counted over
    /// every sign pattern (midranks for tied differences, zero differences dropped). Nil for fewer
    /// than `minimumSamples` pairs, unequal counts or values that are not finite.
    public init?(pairedBaseline baseline: [Double], current: [Double], confidence: Double = 0.95) {
        guard baseline.count == current.count, baseline.count >= Self.minimumSamples,
            (baseline + current).allSatisfy(\.isFinite)
        else { return nil }
        let differences = zip(current, baseline).map { $0 - $1 }
        var walsh: [Double] = []
        for i in differences.indices {
            for j in i..<differences.count { walsh.append((differences[i] + differences[j]) / 2) }
        }
        walsh.sort()
        let count = walsh.count
        let shift = count % 2 == 1 ? walsh[count / 2] : (walsh[count / 2 - 1] + walsh[count / 2]) / 2
        let distribution = SignedRankDistribution(differences.filter { $0 != 0 })
        let alpha = 1 - confidence
        // The largest k with P(W < k) <= alpha / 2: the interval runs from the k-th smallest Walsh
        // average to the k-th largest.
        var k = 0
        while k < count && distribution.cumulative(doubledSum: 2 * k) <= alpha / 2 { k += 1 }
        k = max(k, 1)
        self.init(p: distribution.p, shift: shift, lower: walsh[k - 1], upper: walsh[count - k])
    }

    /// The smallest two-sided p that `n` pairs can give: every difference of one sign.
    public static func smallestPairedP(pairs n: Int) -> Double {
        min(1, 2 / pow(2, Double(n)))
    }
}

/// The exact distribution of the sum of positive signed ranks, over the 2^n sign patterns, in
/// doubled ranks so that midranks stay whole numbers.
struct SignedRankDistribution {
    /// Frequencies of each doubled sum, over 2^n.
    private let probabilities: [Double]
    /// The observed doubled sum of the positive differences' ranks.
    private let observed: Int

    init(_ differences: [Double]) {
        let magnitudes = differences.map(abs)
        let order = magnitudes.indices.sorted { magnitudes[$0] < magnitudes[$1] }
        var doubledRanks = [Int](repeating: 0, count: magnitudes.count)
        var start = 0
        while start < order.count {
            var end = start
            while end + 1 < order.count && magnitudes[order[end + 1]] == magnitudes[order[start]] { end += 1 }
            // Positions start...end share the midrank (start + end + 2) / 2, doubled: start + end + 2.
            for position in start...end { doubledRanks[order[position]] = start + end + 2 }
            start = end + 1
        }
        var counts = [Double](repeating: 0, count: doubledRanks.reduce(0, +) + 1)
        counts[0] = 1
        for rank in doubledRanks {
            for sum in stride(from: counts.count - 1, through: rank, by: -1) { counts[sum] += counts[sum - rank] }
        }
        let total = pow(2, Double(doubledRanks.count))
        probabilities = counts.map { $0 / total }
        observed = zip(differences, doubledRanks).filter { $0.0 > 0 }.map(\.1).reduce(0, +)
    }

    /// P(doubled sum <= `doubledSum`).
    func cumulative(doubledSum: Int) -> Double {
        guard doubledSum >= 0 else { return 0 }
        return probabilities.prefix(doubledSum + 1).reduce(0, +)
    }

    /// Two-sided: twice the smaller tail at the observed sum, at most 1.
    var p: Double {
        guard probabilities.count > 1 else { return 1 }
        let below = cumulative(doubledSum: observed)
        let above = 1 - cumulative(doubledSum: observed - 1)
        return min(1, 2 * min(below, above))
    }
}
