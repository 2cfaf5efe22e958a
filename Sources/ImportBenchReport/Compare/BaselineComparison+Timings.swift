import Foundation

extension BaselineComparison {
    /// One timed or memory metric of one row: its repetitions in each file.
    struct Timing {
        let key: ResultTable.Key
        let metric: String
        let tolerance: Double
        let baseline: [Double]
        let current: [Double]
    }

    /// A measured value as the Markdown table shows it.
    private static func text(_ value: Double) -> String { String(format: "%.6g", value) }

    /// A row's timed and memory metrics with a tolerance, each with repetitions both files measured
    /// above zero; `wall_s` by the most faithful measure of time both files have.
    static func timings(of row: CommonRow, tolerances: [String: Double], scope: Scope) -> [Timing] {
        var timings: [Timing] = []
        for (metric, tolerance) in tolerances.sorted(by: { $0.key < $1.key }) {
            let judged = metric == "wall_s" ? timeMetric(of: row, scope: scope) : metric
            guard let a = row.baselineSamples[judged], let b = row.currentSamples[judged], !a.isEmpty, !b.isEmpty, a.allSatisfy({ $0 > 0 }),
                b.allSatisfy({ $0 > 0 })
            else { continue }
            timings.append(Timing(key: row.key, metric: judged, tolerance: tolerance, baseline: a, current: b))
        }
        return timings
    }

    /// What `wall_s` is judged by. Side by side: CPU time. Else the most faithful measure of time
    /// both files have: CPU over the C reference's CPU, then wall over the C reference, then over
    /// the ceiling, then wall alone.
    private static func timeMetric(of row: CommonRow, scope: Scope) -> String {
        if scope == .sideBySide { return ResultTable.cpuSeconds }
        if let ratio = [ResultTable.cpuPerCReference, ResultTable.wallPerCReference].first(where: {
            row.baselineSamples[$0]?.isEmpty == false && row.currentSamples[$0]?.isEmpty == false
        }) {
            return ratio
        }
        if row.baseline["wall_ratio_to_ceiling"]?.isEmpty == false, row.current["wall_ratio_to_ceiling"]?.isEmpty == false {
            return "wall_ratio_to_ceiling"
        }
        return "wall_s"
    }

    /// Every timing judged, by a rank test where one could prove a change, else by its medians; the
    /// changes beyond their tolerances (medians' first), the largest tested move per metric, and
    /// how many were tested.
    static func judge(
        _ timings: [Timing]
    ) -> (changes: [Change], largestMoves: [(change: Change, tolerance: Double)], tested: Int) {
        let family = Dictionary(grouping: timings, by: \.metric).mapValues(\.count)
        var changes: [Change] = []
        var tested: [(timing: Timing, test: RankTest)] = []
        for timing in timings {
            if let test = rankTest(of: timing, familySize: family[timing.metric] ?? 1) {
                tested.append((timing, test))
            } else if let change = medianChange(of: timing) {
                changes.append(change)
            }
        }
        let adjusted = holmAdjustedPerMetric(tested.map { ($0.timing.metric, $0.test.p) })
        var largest: [String: (change: Change, tolerance: Double)] = [:]
        for (index, (timing, test)) in tested.enumerated() {
            let judged = testedChange(of: timing, by: test, adjustedP: adjusted[index])
            let change = exp(test.shift) - 1
            if largest[timing.metric].map({ abs(change) > abs($0.change.test?.change ?? 0) }) ?? true {
                largest[timing.metric] = (judged, timing.tolerance)
            }
            guard abs(change) > timing.tolerance else { continue }
            changes.append(judged)
        }
        return (changes, largest.sorted { $0.key < $1.key }.map(\.value), tested.count)
    }

    /// A rank test where it could prove a change among the rows of its metric: its smallest
    /// possible p, with Holm's first factor, below alpha. With fewer repetitions (3 against 3 can
    /// never give p below 0.1) nil, and the medians are held to the tolerance instead.
    private static func rankTest(of timing: Timing, familySize: Int) -> RankTest? {
        guard RankTest.smallestP(baseline: timing.baseline.count, current: timing.current.count) * Double(familySize) < alpha else {
            return nil
        }
        return RankTest(baseline: timing.baseline.map { log($0) }, current: timing.current.map { log($0) })
    }

    /// An untested timing's change: its medians' relative move, when larger than the tolerance.
    private static func medianChange(of timing: Timing) -> Change? {
        let (a, b) = (SummaryTable.median(timing.baseline), SummaryTable.median(timing.current))
        let relative = (b - a) / a
        guard abs(relative) > timing.tolerance else { return nil }
        return Change(
            key: timing.key, metric: timing.metric, baseline: text(a), current: text(b),
            isRegression: (relative > 0) == lowerIsBetter(timing.metric))
    }

    /// A tested timing's change: a regression only when significant after Holm's adjustment and the worse way.
    private static func testedChange(of timing: Timing, by test: RankTest, adjustedP p: Double) -> Change {
        let change = exp(test.shift) - 1
        let significant = p < alpha
        let worse = (change > 0) == lowerIsBetter(timing.metric)
        return Change(
            key: timing.key, metric: timing.metric, baseline: text(SummaryTable.median(timing.baseline)),
            current: text(SummaryTable.median(timing.current)), isRegression: significant && worse,
            test: TimedChange(
                change: change, lower: exp(test.lower) - 1, upper: exp(test.upper) - 1, p: p,
                baselineSamples: timing.baseline.count, currentSamples: timing.current.count, isWithinNoise: !significant))
    }
}
