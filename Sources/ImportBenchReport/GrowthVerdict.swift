/// What an exponent of cost on scale says, said only where its interval allows it: every value
/// within `tolerance` of 1 is linear; wholly above, superlinear (an N+1 that worsens, an index
/// missing, a cache that thrashes); wholly below, sublinear (objects that repeat more as the
/// payload grows). An interval that reaches across a boundary gets no verdict.
package enum GrowthVerdict: String, Sendable {
    case linear, superlinear, sublinear

    /// For a time exponent's range over repetitions: timings carry noise, counts none.
    package static let timeTolerance = 0.1
    /// For a count's exponent, which is exact.
    package static let countTolerance = 0.05

    package init?(lower: Double, upper: Double, tolerance: Double) {
        if lower > 1 + tolerance {
            self = .superlinear
        } else if upper < 1 - tolerance {
            self = .sublinear
        } else if lower >= 1 - tolerance && upper <= 1 + tolerance {
            self = .linear
        } else {
            return nil
        }
    }
}
