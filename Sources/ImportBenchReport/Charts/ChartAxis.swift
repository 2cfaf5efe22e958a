import Foundation

/// A numeric axis: its domain, where its ticks go and how they read. Logarithmic axes tick at
/// powers of ten, or at 1-2-5 steps when the data spans too little for powers of ten to show.
struct ChartAxis: Equatable {
    enum Kind: Equatable { case linear, logarithmic }

    let kind: Kind
    let lower: Double
    let upper: Double
    let ticks: [Double]

    /// Spans the positive values given with a little room either side; nil when there is none.
    static func logarithmic(covering values: [Double]) -> ChartAxis? {
        let positive = values.filter { $0 > 0 && $0.isFinite }
        guard let smallest = positive.min(), let largest = positive.max() else { return nil }
        let room = largest / smallest < 1.5 ? 1.5 : 1.2
        var lower = smallest / room
        var upper = largest * room
        let lowerDecade = log10(lower).rounded(.down)
        let upperDecade = log10(upper).rounded(.up)
        let steps = stride(from: lowerDecade, through: upperDecade, by: 1).flatMap { decade in
            [1.0, 2, 5].map { $0 * pow(10, decade) }
        }
        var inside = steps.filter { $0 >= lower && $0 <= upper }
        if inside.count < 2 {
            // Too narrow for two ticks: widen to the steps around the data.
            lower = steps.last { $0 < smallest } ?? lower
            upper = steps.first { $0 > largest } ?? upper
            inside = steps.filter { $0 >= lower && $0 <= upper }
        }
        let powers = inside.filter { abs(log10($0) - log10($0).rounded()) < 1e-9 }
        let ticks = powers.count >= 3 || inside.count > 8 ? thinned(powers) : inside
        return ChartAxis(kind: .logarithmic, lower: lower, upper: upper, ticks: ticks)
    }

    /// Spans the values given and zero, at a nice step giving about five ticks.
    static func linear(covering values: [Double]) -> ChartAxis {
        let finite = values.filter(\.isFinite)
        let low = min(0, finite.min() ?? 0)
        var high = max(0, finite.max() ?? 0)
        if high <= low { high = low + 1 }
        let step = niceStep((high - low) / 5)
        let lower = (low / step).rounded(.down) * step
        let upper = (high / step - 1e-9).rounded(.up) * step
        let count = Int(((upper - lower) / step).rounded())
        let ticks = (0...count).map { lower + Double($0) * step }
        return ChartAxis(kind: .linear, lower: lower, upper: upper, ticks: ticks)
    }

    /// 1, 2 or 5 times a power of ten, at least `raw`.
    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        let magnitude = pow(10, log10(raw).rounded(.down))
        for factor in [1.0, 2, 5, 10] where factor * magnitude >= raw * (1 - 1e-9) { return factor * magnitude }
        return 10 * magnitude
    }

    /// Keeps at most about eight powers of ten, every other one beyond that.
    private static func thinned(_ ticks: [Double]) -> [Double] {
        guard ticks.count > 8 else { return ticks }
        let every = Int((Double(ticks.count) / 8).rounded(.up))
        return ticks.enumerated().filter { $0.offset % every == 0 }.map(\.element)
    }

    /// Where `value` falls, 0 at `lower` and 1 at `upper`.
    func fraction(_ value: Double) -> Double {
        switch kind {
        case .linear:
            return (value - lower) / (upper - lower)
        case .logarithmic:
            guard value > 0 else { return 0 }
            return (log10(value) - log10(lower)) / (log10(upper) - log10(lower))
        }
    }

    func contains(_ value: Double) -> Bool { value >= lower * (1 - 1e-9) && value <= upper * (1 + 1e-9) && (kind == .linear || value > 0) }

    /// Tick labels: 1k, 20k, 1M once the axis reaches ten thousand, otherwise plain (0.005, 20, 1,000).
    var tickLabels: [String] {
        let compact = (ticks.map(abs).max() ?? 0) >= 10_000
        return ticks.map { Self.label($0, compact: compact) }
    }

    static func label(_ value: Double, compact: Bool) -> String {
        let magnitude = abs(value)
        if compact {
            for (divisor, suffix) in [(1e9, "G"), (1e6, "M"), (1e3, "k")] where magnitude >= divisor {
                return plain(value / divisor) + suffix
            }
        }
        return plain(value)
    }

    /// The fewest decimals (up to six) that show the value exactly, thousands separated.
    static func plain(_ value: Double) -> String {
        var decimals = 0
        while decimals < 6 {
            let scale = pow(10, Double(decimals))
            if abs((value * scale).rounded() / scale - value) <= abs(value) * 1e-9 { break }
            decimals += 1
        }
        let text = String(format: "%.\(decimals)f", value)
        guard abs(value) >= 1000 else { return text == "-0" ? "0" : text }
        let parts = text.split(separator: ".", maxSplits: 1)
        let integer = SummaryTable.count(Int(parts[0]) ?? 0)
        return parts.count == 2 ? integer + "." + parts[1] : integer
    }
}
