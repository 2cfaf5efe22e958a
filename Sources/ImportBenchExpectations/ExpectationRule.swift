import ImportBenchCore
import ImportBenchReport

/// A rule a team writes once about the strategies of one run, which CI holds on any machine
/// without a baseline: a metric of one strategy against a multiple of another's, of a fact of the
/// run (`records`), or of a number; or how a metric grows with the payload's scale.
/// `my-importer.wall_s <= 1.3 * prewarm.wall_s`, `growth(my-importer.fetch_count) <= 1.0`.
package struct ExpectationRule: Sendable, Equatable {
    /// A strategy's metric: a numeric column of the results CSV, on that strategy's rows.
    package struct Metric: Sendable, Equatable, CustomStringConvertible {
        package let strategy: String
        package let column: String
        /// Where the strategy's name starts in the rule's text (1-based), for a located refusal.
        package let position: Int

        package var description: String { "\(strategy).\(column)" }
    }

    /// What the metric is held against.
    package enum Bound: Sendable, Equatable {
        /// A multiple of another strategy's metric, measured in the same run.
        case metric(Metric)
        /// A multiple of a fact of the run, a numeric column read on the left strategy's own rows
        /// (`records`, `unique_records`): the same payload for every strategy.
        case fact(column: String, position: Int)
        /// A number.
        case number
    }

    /// How the left side compares with the bound.
    package enum Comparison: String, Sendable, Equatable, CaseIterable {
        case atMost = "<="
        case below = "<"
        case atLeast = ">="
        case above = ">"

        /// Whether `value` against `bound` satisfies the comparison.
        package func holds(_ value: Double, _ bound: Double) -> Bool {
            switch self {
            case .atMost: return value <= bound
            case .below: return value < bound
            case .atLeast: return value >= bound
            case .above: return value > bound
            }
        }

        /// Whether a larger left side is the wrong way (`<=`, `<`).
        package var capsFromAbove: Bool { self == .atMost || self == .below }
    }

    /// The rule as it was written, trimmed.
    package let text: String
    /// Where it was given: `--expect`'s number, or the file and line.
    package let origin: ExpectationOrigin
    /// Why the rule holds, as its author says; shown beside its verdict.
    package var reason: String?
    /// `growth(...)`: the left side is the metric's exponent across the run's scales.
    package let isGrowth: Bool
    package let left: Metric
    package let comparison: Comparison
    /// The bound's multiplier, or for `Bound.number` the number itself.
    package let factor: Double
    package let bound: Bound

    /// `growth(strategy.column) <= 1 + GrowthVerdict.countTolerance`, as `--growth` implies it:
    /// the count grows no faster than the growth table still calls linear. Built, not parsed, so it
    /// cannot be lost to a name the parser would refuse.
    package static func linearGrowth(of strategy: String, column: String) -> ExpectationRule {
        let limit = 1 + GrowthVerdict.countTolerance
        return ExpectationRule(
            text: "growth(\(strategy).\(column)) <= \(limit)", origin: .growthOption, reason: nil, isGrowth: true,
            left: Metric(strategy: strategy, column: column, position: 8), comparison: .atMost, factor: limit, bound: .number)
    }

    /// Every strategy the rule names, with where in its text.
    package var strategies: [(name: String, position: Int)] {
        var names = [(left.strategy, left.position)]
        if case .metric(let metric) = bound { names.append((metric.strategy, metric.position)) }
        return names
    }
}

/// Where a rule was given, for a message that points at it.
package enum ExpectationOrigin: Sendable, Equatable, CustomStringConvertible {
    /// The `index`-th `--expect` (1-based).
    case option(index: Int)
    /// A line of an expectations file.
    case file(path: String, line: Int)
    /// Implied by `--growth`.
    case growthOption

    /// Whether it is bench's own text (`--expect #1`, `--growth`), not a path someone wrote.
    package var isOption: Bool {
        if case .file = self { return false }
        return true
    }

    package var description: String {
        switch self {
        case .option(let index): return "--expect #\(index)"
        case .file(let path, let line): return "\(path):\(line)"
        case .growthOption: return "--growth"
        }
    }
}
