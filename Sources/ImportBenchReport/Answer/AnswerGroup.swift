/// The answer for one payload and setting: every strategy's standing, ranked by median wall time
/// among the valid candidates, each time a multiple of the fastest and of the ceiling of the same
/// setting.
package struct AnswerGroup: Sendable {
    package let identity: RunIdentity
    /// Ranked strategies fastest first, then the ceiling, then those not ranked, invalid ones last.
    package let standings: [StrategyStanding]

    /// `runs` are the group's own; `ceilingRuns` those of its ceiling (the same runs' reference
    /// rows, or, for a refresh, the reference rows of the same setting without a preload).
    /// `order` is the report's strategy order, which breaks ties.
    init(identity: RunIdentity, runs: [ResultsRow], ceilingRuns: [ResultsRow], order: [String]) {
        self.identity = identity
        let own = runs.filter { !$0.isCeiling }
        let byStrategy = Dictionary(grouping: own + ceilingRuns, by: \.strategy)
        let unsorted = order.compactMap { name in byStrategy[name].map { StrategyStanding(strategy: name, runs: $0) } }
        standings = Self.ranked(unsorted)
    }

    /// The fastest valid candidate, if any strategy is one.
    package var fastest: StrategyStanding? { standings.first { $0.rank == 1 } }

    /// The valid ceiling every multiple is taken to, if one ran.
    package var ceiling: StrategyStanding? { standings.first { $0.status == .ceiling && $0.wallSeconds != nil } }

    private static func ranked(_ standings: [StrategyStanding]) -> [StrategyStanding] {
        // A time of zero (a hand-edited file) gives no multiple rather than an infinite one.
        let fastestWall = standings.filter(\.isRanked).compactMap(\.wallSeconds).filter { $0 > 0 }.min()
        let ceilingWall = standings.first { $0.status == .ceiling }?.wallSeconds.flatMap { $0 > 0 ? $0 : nil }
        var result = standings.map { standing in
            var standing = standing
            if let wall = standing.wallSeconds {
                standing.multipleOfFastest = fastestWall.map { wall / $0 }
                standing.multipleOfCeiling = ceilingWall.map { wall / $0 }
            }
            return standing
        }
        let order = result.indices.sorted { placeKey(result[$0], $0) < placeKey(result[$1], $1) }
        result = order.map { result[$0] }
        var rank = 0
        for index in result.indices where result[index].isRanked {
            rank += 1
            result[index].rank = rank
        }
        return result
    }

    /// Ranked by time, then the ceiling, then the rest, invalid last; ties keep the report's order.
    private static func placeKey(_ standing: StrategyStanding, _ index: Int) -> PlaceKey {
        let tier: Int
        switch standing.status {
        case _ where standing.isRanked: tier = 0
        case .ceiling: tier = 1
        case .invalid: tier = 3
        default: tier = 2
        }
        return PlaceKey(tier: tier, wall: tier == 0 ? standing.wallSeconds ?? 0 : 0, index: index)
    }

    private struct PlaceKey: Comparable {
        var tier: Int
        var wall: Double
        var index: Int

        static func < (lhs: PlaceKey, rhs: PlaceKey) -> Bool { (lhs.tier, lhs.wall, lhs.index) < (rhs.tier, rhs.wall, rhs.index) }
    }
}
