import ImportBenchCore
import ImportBenchReport

/// What one rule says of one configuration of a run (one scenario, scale, batch size and
/// settings; for `growth`, every scale of one): held, broken, or undecided, with both sides'
/// figures and, for timings, the interval that decided it.
package struct ExpectationVerdict: Sendable, Equatable {
    package enum Outcome: String, Sendable, Equatable {
        /// The rule holds: exactly for counts, with the whole interval on its side for timings.
        case held
        /// The rule is broken: exactly, or with the whole interval on the wrong side.
        case broken
        /// The interval straddles the bound, or there are too few repetitions to have one.
        case undecided
    }

    package let rule: ExpectationRule
    /// The configuration judged, as the table's header names it (`chat 1x batch 1000`).
    package let configuration: String
    package let outcome: Outcome
    /// The left side: a count or a median, a ratio of two timings (left over right, the median of
    /// the per-repetition ratios), or a growth exponent.
    package let measured: Double
    /// What `measured` is held against: the factor for a ratio, else the factor times the bound.
    package let limit: Double
    /// For a timing: the interval of `measured` that decided (95 % for a ratio, the range of the
    /// per-repetition exponents for growth, the repetitions' range against a number).
    package let interval: ClosedRange<Double>?
    /// For an undecided rule: about how many repetitions would likely decide it.
    package let repetitionsToDecide: Int?
    /// How `measured` was taken, in words (`ratio to prewarm.wall_s`, `exponent over 1x, 2x`).
    package let basis: String

    /// Whether the verdict fails the run: broken, or undecided under `--strict`.
    package func fails(strict: Bool) -> Bool {
        outcome == .broken || (strict && outcome == .undecided)
    }
}
