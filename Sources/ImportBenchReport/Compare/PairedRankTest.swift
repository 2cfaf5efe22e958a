import Foundation

/// The Wilcoxon signed-rank interval of paired differences: for timings measured in the same
/// repetition, interleaved (a strategy and the one a rule compares it with), the logs of their
/// ratios, whose pseudo-median (the Hodges-Lehmann estimate, the median of the Walsh averages) and
/// its confidence interval say how the two compare with the machine's drift between repetitions
/// taken out. Exact: the signed-rank statistic's distribution is counted, not approximated.
package struct PairedRankTest: Sendable, Equatable {
    /// The median of every Walsh average (d_i + d_j) / 2, i <= j.
    package let estimate: Double
    package let lower: Double
    package let upper: Double
    /// The interval's actual coverage: at least the confidence asked, as the exact distribution allows.
    package let coverage: Double

    /// Fewer pairs cannot give a 95 % interval: 6 give 96.9 % (their whole range).
    package static let minimumPairs = 6

    package init?(_ differences: [Double], confidence: Double = 0.95) {
        let n = differences.count
        guard n >= Self.minimumPairs, differences.allSatisfy(\.isFinite) else { return nil }
        var walsh: [Double] = []
        walsh.reserveCapacity(n * (n + 1) / 2)
        for i in 0..<n {
            for j in i..<n { walsh.append((differences[i] + differences[j]) / 2) }
        }
        walsh.sort()
        let count = walsh.count
        estimate = count % 2 == 1 ? walsh[count / 2] : (walsh[count / 2 - 1] + walsh[count / 2]) / 2
        // The largest k with P(T+ <= k - 1) <= alpha / 2: the interval runs from the k-th smallest
        // Walsh average to the k-th largest.
        let cumulative = Self.signedRankCumulative(n: n)
        let alpha = 1 - confidence
        var k = 0
        while k < cumulative.count, cumulative[k] <= alpha / 2 { k += 1 }
        let bounded = max(1, min(k, (count + 1) / 2))
        lower = walsh[bounded - 1]
        upper = walsh[count - bounded]
        coverage = 1 - 2 * cumulative[bounded - 1]
    }

    /// P(T+ <= t) for t = 0...n(n+1)/2 under no difference: the subsets of 1...n by their sum, counted.
    static func signedRankCumulative(n: Int) -> [Double] {
        let total = n * (n + 1) / 2
        var counts = [Double](repeating: 0, count: total + 1)
        counts[0] = 1
        for rank in 1...n {
            for sum in stride(from: total, through: rank, by: -1) { counts[sum] += counts[sum - rank] }
        }
        let all = pow(2.0, Double(n))
        var running = 0.0
        return counts.map {
            running += $0
            return running / all
        }
    }
}
