import Foundation

/// SplitMix64: a tiny, fast generator whose whole state is one UInt64, so payloads are reproducible
/// from a seed on every platform (the standard library offers no seedable generator, and its
/// `random(in:using:)` algorithms are not promised to stay the same between releases).
///
/// Only integer arithmetic is used to draw values, so the same seed gives the same sequence everywhere.
package struct SeededRandom: Sendable {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    /// A seed for an independent stream, such as one channel's: generating channel 7 then never
    /// depends on how many numbers channel 6 consumed.
    package static func subSeed(_ seed: UInt64, stream: UInt64, index: UInt64) -> UInt64 {
        mix(mix(seed ^ mix(stream &+ 0x632B_E59B_D9B4_E019)) ^ (index &* 0x9E37_79B9_7F4A_7C15))
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// Uniform in `0..<bound` (multiply-high reduction; its bias is below 2^-32 for the bounds used here).
    package mutating func nextInt(below bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// Uniform in `range`.
    package mutating func nextInt(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + nextInt(below: range.upperBound - range.lowerBound + 1)
    }

    /// True with `probability` (0...1).
    package mutating func chance(_ probability: Double) -> Bool {
        guard probability < 1 else { return true }
        guard probability > 0 else { return false }
        // 2^64 * probability is exact enough; the comparison keeps the draw integer-only.
        let threshold = UInt64(probability * 18_446_744_073_709_551_616.0)
        return next() < threshold
    }

    /// One element of a non-empty collection.
    package mutating func pick<C: RandomAccessCollection>(_ elements: C) -> C.Element where C.Index == Int {
        elements[elements.startIndex + nextInt(below: elements.count)]
    }

    /// The SplitMix64 finaliser (Stafford's mix 13).
    @inline(__always)
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Draws ranks 0..<count with probability proportional to 1 / (rank + 1)^exponent: a few popular
/// users, a long tail of rare ones, as in real chat traffic.
///
/// Weights are rounded to integers once, so sampling is integer-only and reproducible even if `pow`
/// differs in its last bit between platforms.
package struct ZipfSampler: Sendable {
    /// cumulativeWeights[i] = sum of the weights of ranks 0...i.
    private let cumulativeWeights: [UInt64]

    package var count: Int { cumulativeWeights.count }

    /// `count` must be at least 1.
    package init(count: Int, exponent: Double) {
        let ranks = max(count, 1)
        var cumulative: [UInt64] = []
        cumulative.reserveCapacity(ranks)
        var total: UInt64 = 0
        for rank in 0..<ranks {
            let weight = (1_000_000_000.0 / pow(Double(rank + 1), exponent)).rounded()
            total += max(UInt64(weight), 1)
            cumulative.append(total)
        }
        cumulativeWeights = cumulative
    }

    /// A rank in 0..<count; rank 0 is the most likely.
    package func sample(using random: inout SeededRandom) -> Int {
        guard let total = cumulativeWeights.last else { return 0 }
        let target = UInt64(random.nextInt(below: Int(total)))
        // First index whose cumulative weight exceeds target.
        var low = 0
        var high = cumulativeWeights.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulativeWeights[middle] > target {
                high = middle
            } else {
                low = middle + 1
            }
        }
        return low
    }
}
