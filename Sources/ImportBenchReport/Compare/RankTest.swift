import Foundation

/// The Mann-Whitney U test and the Hodges-Lehmann shift with its confidence interval: whether the
/// repetitions of a timing moved between two runs, and by how much, without assuming how timings
/// are distributed (they are skewed, with a long tail of interrupted runs). Exact for small samples
/// without ties, the normal approximation with a tie correction otherwise.
package struct RankTest: Sendable, Equatable {
    /// Two-sided p-value of "neither sample tends to be larger".
    package let p: Double
    /// The median of every pairwise difference `current - baseline` (of the values given, which
    /// for timings are logarithms, so the shift is a ratio).
    package let shift: Double
    /// `confidence` interval of the shift.
    package let lower: Double
    package let upper: Double

    /// A result computed elsewhere (the paired test).
    init(p: Double, shift: Double, lower: Double, upper: Double) {
        self.p = p
        self.shift = shift
        self.lower = lower
        self.upper = upper
    }

    /// Fewer values on a side and no test is made: `init` returns nil.
    package static let minimumSamples = 3

    package init?(baseline: [Double], current: [Double], confidence: Double = 0.95) {
        let n = baseline.count
        let m = current.count
        guard n >= Self.minimumSamples, m >= Self.minimumSamples, baseline.allSatisfy(\.isFinite), current.allSatisfy(\.isFinite) else {
            return nil
        }
        // U counts the pairs in which the current value is the larger, a tie as half.
        var u = 0.0
        var differences: [Double] = []
        differences.reserveCapacity(n * m)
        for a in baseline {
            for b in current {
                if b > a { u += 1 } else if b == a { u += 0.5 }
                differences.append(b - a)
            }
        }
        differences.sort()
        let pairs = n * m
        shift = pairs % 2 == 1 ? differences[pairs / 2] : (differences[pairs / 2 - 1] + differences[pairs / 2]) / 2

        let alpha = 1 - confidence
        let ties = Set(baseline + current).count < n + m
        let k: Int
        if !ties, let distribution = UDistribution(n: n, m: m) {
            p = min(1, 2 * min(distribution.cumulative(Int(u)), 1 - distribution.cumulative(Int(u) - 1)))
            // The largest k with P(U < k) <= alpha / 2: the interval runs from the k-th smallest
            // difference to the k-th largest.
            var count = 0
            while count < pairs && distribution.cumulative(count) <= alpha / 2 { count += 1 }
            // 1 only for 3 against 3, whose p never passes (see `smallestP`): the interval is then wider than 95 %.
            k = max(count, 1)
        } else {
            let mean = Double(pairs) / 2
            let all = (baseline + current).sorted()
            var tieTerm = 0.0
            var index = 0
            while index < all.count {
                var end = index
                while end + 1 < all.count && all[end + 1] == all[index] { end += 1 }
                let size = Double(end - index + 1)
                tieTerm += size * size * size - size
                index = end + 1
            }
            let total = Double(n + m)
            let variance = Double(pairs) / 12 * ((total + 1) - tieTerm / (total * (total - 1)))
            let deviation = variance > 0 ? variance.squareRoot() : 0
            // Continuity-corrected.
            let z = deviation > 0 ? max(0, abs(u - mean) - 0.5) / deviation : 0
            p = min(1, 2 * Self.upperNormalTail(z))
            let critical = Self.normalQuantile(1 - alpha / 2)
            k = max(1, Int((mean - critical * deviation).rounded(.down)))
        }
        let bounded = min(k, (pairs + 1) / 2)
        lower = differences[bounded - 1]
        upper = differences[pairs - bounded]
    }

    /// The smallest two-sided p samples of these sizes can give: every current value beyond every
    /// baseline one (2 / C(n + m, n) when exact). A test that cannot go below alpha over the
    /// number of comparisons cannot prove anything, whatever was measured.
    package static func smallestP(baseline n: Int, current m: Int) -> Double {
        RankTest(baseline: (0..<n).map(Double.init), current: (0..<m).map { Double(n + $0) })?.p ?? 1
    }

    /// P(Z > z) for a standard normal Z.
    static func upperNormalTail(_ z: Double) -> Double {
        0.5 * erfc(z / 2.0.squareRoot())
    }

    /// The standard normal quantile, by bisection on `upperNormalTail` (called a few times per comparison).
    static func normalQuantile(_ probability: Double) -> Double {
        var low = -10.0
        var high = 10.0
        for _ in 0..<100 {
            let middle = (low + high) / 2
            if 1 - upperNormalTail(middle) < probability { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }

    /// Holm's step-down adjustment: each p-value made valid when all of them are judged together, so
    /// twenty-eight rows compared at 5 % do not give one false regression in every run.
    package static func holmAdjusted(_ values: [Double]) -> [Double] {
        let order = values.indices.sorted { values[$0] < values[$1] }
        var adjusted = Array(repeating: 1.0, count: values.count)
        var running = 0.0
        for (rank, index) in order.enumerated() {
            running = max(running, min(1, Double(values.count - rank) * values[index]))
            adjusted[index] = running
        }
        return adjusted
    }
}

/// The exact distribution of U for samples of `n` and `m` distinct values, by counting the
/// arrangements that give each U (Mann and Whitney's recurrence).
struct UDistribution {
    private let cumulativeCounts: [Double]
    private let total: Double

    /// Past this many pairs the table is large and the normal approximation good: nil.
    static let largestPairs = 2_500

    init?(n: Int, m: Int) {
        guard n * m <= Self.largestPairs else { return nil }
        // counts[i][j][u]: arrangements of i and j values with statistic u, built up one value at a time.
        var previous = Array(repeating: [1.0], count: m + 1)
        for i in 1...n {
            var row: [[Double]] = [[1.0]]
            for j in 1...m {
                var counts = Array(repeating: 0.0, count: i * j + 1)
                // The largest value is either from the current sample (it beats all i) or not.
                for (u, count) in previous[j].enumerated() { counts[u] += count }
                for (u, count) in row[j - 1].enumerated() where u + i <= i * j { counts[u + i] += count }
                row.append(counts)
            }
            previous = row
        }
        let counts = previous[m]
        var running = 0.0
        cumulativeCounts = counts.map {
            running += $0
            return running
        }
        total = running
    }

    /// P(U <= u).
    func cumulative(_ u: Int) -> Double {
        guard u >= 0 else { return 0 }
        guard u < cumulativeCounts.count else { return 1 }
        return cumulativeCounts[u] / total
    }
}
