import Foundation
import ImportBenchCore
import ImportBenchReport

/// Judges rules on a run's results. Counts are exact and judged exactly. A timing against another
/// strategy's is judged as their ratio in each interleaved repetition, with a rank statistic
/// (`PairedRankTest`: the Hodges-Lehmann ratio and its signed-rank 95 % interval); against a number or
/// a fact, and as a growth exponent, from the range over the repetitions. Either way a rule whose
/// interval straddles its bound is undecided, never guessed.
package enum ExpectationJudge {
    /// Refuses a rule that names a strategy none of `planned` is, before anything runs.
    package static func check(_ rules: [ExpectationRule], planned: [String]) throws(ExpectationError) {
        for rule in rules {
            for (name, position) in rule.strategies where !planned.contains(name) {
                throw ExpectationError(
                    origin: rule.origin, text: rule.text, position: position, problem: .unknownStrategy(name, planned: planned))
            }
        }
    }

    /// Every rule's verdict on every configuration of `results` that measured its strategies, in
    /// the rules' order.
    package static func judge(_ rules: [ExpectationRule], _ results: [RunResult]) -> [ExpectationVerdict] {
        judge(rules, rows: ResultsRow.rows(of: results))
    }

    /// The same, on results read back from CSV files (`ReportInput`): the gate's, whose files hold a
    /// repetition each and are numbered here in the order run.
    package static func judge(_ rules: [ExpectationRule], rows: [ResultsRow]) -> [ExpectationVerdict] {
        let figures = RunFigures(rows: rows)
        return rules.flatMap { rule in
            rule.isGrowth ? judgeGrowth(rule, figures) : judgeComparison(rule, figures)
        }
    }

    /// The rule in each configuration (one scale each) that measured its left strategy.
    private static func judgeComparison(_ rule: ExpectationRule, _ figures: RunFigures) -> [ExpectationVerdict] {
        figures.configurations(withScale: true).compactMap { configuration, runs in
            let left = figures.values(rule.left.column, of: rule.left.strategy, in: runs)
            guard !left.isEmpty else { return nil }
            let exact = figures.isExact(rule.left.column)
            switch rule.bound {
            case .metric(let other):
                let right = figures.values(other.column, of: other.strategy, in: runs)
                guard !right.isEmpty else { return nil }
                if exact {
                    return exactVerdict(rule, configuration, left[0].value, rule.factor * right[0].value, basis: "count, exact")
                }
                return ratioVerdict(rule, configuration, left: left, right: right)
            case .fact(let column, _):
                let fact = figures.values(column, of: rule.left.strategy, in: runs).first?.value ?? .nan
                let limit = rule.factor * fact
                return exact
                    ? exactVerdict(rule, configuration, left[0].value, limit, basis: "count, exact")
                    : rangeVerdict(rule, configuration, left.map(\.value), limit, basis: "the repetitions' range against \(column)")
            case .number:
                return exact
                    ? exactVerdict(rule, configuration, left[0].value, rule.factor, basis: "count, exact")
                    : rangeVerdict(rule, configuration, left.map(\.value), rule.factor, basis: "the repetitions' range")
            }
        }
    }

    /// A count against its limit: held or broken, nothing between.
    private static func exactVerdict(
        _ rule: ExpectationRule, _ configuration: String, _ measured: Double, _ limit: Double, basis: String
    ) -> ExpectationVerdict {
        ExpectationVerdict(
            rule: rule, configuration: configuration, outcome: rule.comparison.holds(measured, limit) ? .held : .broken,
            measured: measured, limit: limit, interval: nil, repetitionsToDecide: nil, basis: basis)
    }

    /// Two timings of one run: their ratio repetition by repetition (each pair measured side by
    /// side, interleaved), the Hodges-Lehmann estimate of the logs and its signed-rank interval.
    private static func ratioVerdict(
        _ rule: ExpectationRule, _ configuration: String, left: [RunFigures.Value], right: [RunFigures.Value]
    ) -> ExpectationVerdict {
        let basis = "ratio to \(rule.bound.metricText ?? "") per repetition"
        let rightByRepetition = Dictionary(right.map { ($0.repetition, $0.value) }, uniquingKeysWith: { first, _ in first })
        let logRatios = left.compactMap { value in rightByRepetition[value.repetition].map { log(value.value / $0) } }
        let bound = log(rule.factor)
        guard let test = PairedRankTest(logRatios) else {
            let median = logRatios.isEmpty ? Double.nan : exp(SummaryTable.median(logRatios))
            return ExpectationVerdict(
                rule: rule, configuration: configuration, outcome: .undecided, measured: median, limit: rule.factor, interval: nil,
                repetitionsToDecide: PairedRankTest.minimumPairs,
                basis: basis + ", too few repetitions for a 95 % interval (\(PairedRankTest.minimumPairs) needed)")
        }
        let outcome = intervalOutcome(rule.comparison, lower: test.lower, upper: test.upper, bound: bound)
        return ExpectationVerdict(
            rule: rule, configuration: configuration, outcome: outcome, measured: exp(test.estimate), limit: rule.factor,
            interval: exp(test.lower)...exp(test.upper),
            repetitionsToDecide: outcome == .undecided
                ? repetitionsToDecide(now: logRatios.count, estimate: test.estimate, lower: test.lower, upper: test.upper, bound: bound)
                : nil,
            basis: basis + String(format: ", %.1f %% interval", test.coverage * 100))
    }

    /// Timings against a fixed limit: the range of the repetitions decides.
    private static func rangeVerdict(
        _ rule: ExpectationRule, _ configuration: String, _ values: [Double], _ limit: Double, basis: String
    ) -> ExpectationVerdict {
        let median = SummaryTable.median(values)
        guard values.count >= RankTest.minimumSamples, let lower = values.min(), let upper = values.max() else {
            return ExpectationVerdict(
                rule: rule, configuration: configuration, outcome: .undecided, measured: median, limit: limit, interval: nil,
                repetitionsToDecide: RankTest.minimumSamples, basis: basis + ", too few repetitions")
        }
        return ExpectationVerdict(
            rule: rule, configuration: configuration, outcome: intervalOutcome(rule.comparison, lower: lower, upper: upper, bound: limit),
            measured: median, limit: limit, interval: lower...upper, repetitionsToDecide: nil, basis: basis)
    }

    /// Held when the whole interval is on the rule's side of the bound, broken when the whole of it
    /// is on the other side, undecided when it straddles the bound.
    static func intervalOutcome(
        _ comparison: ExpectationRule.Comparison, lower: Double, upper: Double, bound: Double
    ) -> ExpectationVerdict.Outcome {
        let (near, far) = comparison.capsFromAbove ? (upper, lower) : (lower, upper)
        if comparison.holds(near, bound) { return .held }
        if !comparison.holds(far, bound) { return .broken }
        return .undecided
    }

    /// The interval narrows with the square root of the repetitions: about how many would make its
    /// half-width smaller than the distance of the estimate from the bound (at most 1,000).
    static func repetitionsToDecide(now: Int, estimate: Double, lower: Double, upper: Double, bound: Double) -> Int? {
        let distance = abs(estimate - bound)
        let halfWidth = (upper - lower) / 2
        guard distance > 0, halfWidth > 0 else { return nil }
        let needed = Double(now) * (halfWidth / distance) * (halfWidth / distance)
        return needed > 1_000 ? nil : max(now + 1, Int(needed.rounded(.up)))
    }
}

extension ExpectationRule.Bound {
    /// `strategy.column` for a metric bound.
    var metricText: String? {
        if case .metric(let metric) = self { return metric.description }
        return nil
    }
}
