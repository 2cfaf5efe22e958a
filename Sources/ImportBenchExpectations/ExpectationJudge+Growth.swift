import Foundation
import ImportBenchCore
import ImportBenchReport

extension ExpectationJudge {
    /// `growth(strategy.metric)` in each group of configurations that differ only in scale, with at
    /// least two scales: the least-squares exponent of the metric on the payload's occurrences
    /// (`GrowthTable`), exact for a count, per repetition for a timing, judged by its range.
    static func judgeGrowth(_ rule: ExpectationRule, _ figures: RunFigures) -> [ExpectationVerdict] {
        figures.configurations(withScale: false).compactMap { configuration, runs in
            let values = figures.values(rule.left.column, of: rule.left.strategy, in: runs)
            let scales = Set(values.map(\.scale)).sorted()
            guard scales.count >= 2 else { return nil }
            let basis = "exponent on occurrences over " + scales.map { Scale(factor: $0)?.description ?? String($0) }.joined(separator: ", ")
            if figures.isExact(rule.left.column) {
                let firsts = scales.compactMap { scale in values.first { $0.scale == scale } }
                let exponent = GrowthTable.growthExponent(firsts.map { ($0.records, $0.value) })
                return ExpectationVerdict(
                    rule: rule, configuration: configuration, outcome: rule.comparison.holds(exponent, rule.factor) ? .held : .broken,
                    measured: exponent, limit: rule.factor, interval: nil, repetitionsToDecide: nil, basis: basis + ", exact")
            }
            let exponents = GrowthTable.exponentsPerRepetition(
                values.map { (repetition: $0.repetition, scale: String($0.scale), size: $0.records, value: $0.value) }, scales: scales.count)
            return exponentsVerdict(rule, configuration, exponents, basis: basis)
        }
    }

    private static func exponentsVerdict(
        _ rule: ExpectationRule, _ configuration: String, _ exponents: [Double], basis: String
    ) -> ExpectationVerdict {
        let median = exponents.isEmpty ? .nan : SummaryTable.median(exponents)
        guard exponents.count >= RankTest.minimumSamples, let lower = exponents.min(), let upper = exponents.max() else {
            return ExpectationVerdict(
                rule: rule, configuration: configuration, outcome: .undecided, measured: median, limit: rule.factor, interval: nil,
                repetitionsToDecide: RankTest.minimumSamples, basis: basis + ", too few repetitions")
        }
        return ExpectationVerdict(
            rule: rule, configuration: configuration,
            outcome: intervalOutcome(rule.comparison, lower: lower, upper: upper, bound: rule.factor), measured: median,
            limit: rule.factor, interval: lower...upper, repetitionsToDecide: nil, basis: basis + ", range over the repetitions")
    }
}
