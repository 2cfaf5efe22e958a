/// What the page opens with: the fastest valid strategy for a first import and for a refresh, each
/// where the results hold such runs; per payload and setting, the fastest valid strategy and every
/// strategy's multiples of it and of the ceiling; where the winner changes along each swept
/// dimension; and each strategy's multiple of the ceiling drawn across those dimensions. Built from
/// the results alone: the ceiling is the run whose role is `reference`.
package struct AnswerReport: Sendable {
    /// Ordered by payload, then along each dimension.
    package let groups: [AnswerGroup]
    package let axes: SweepAxes
    /// Per swept dimension and held setting, in sentence order.
    package let changes: [WinnerChange]
    package let charts: [AnswerChart]
    /// Per scenario, the winner of a first import and of a refresh, each where such runs ran.
    package let kinds: [ImportKindAnswer]

    /// `order` is the report's strategy order (the order the runner ran them in).
    init(runs: [ResultsRow], order: [String], palette: ChartPalette) {
        let axes = SweepAxes(RunIdentity.identities(of: runs))
        self.axes = axes
        groups = Self.groups(runs, order: order).sorted { Self.precedes($0.identity, $1.identity, axes) }
        changes = Self.changes(groups, axes)
        charts = AnswerChartBuilder(groups: groups, axes: axes, palette: palette).build()
        kinds = ImportKindAnswer.answers(groups)
    }

    /// The page's first words: one sentence per scenario and kind of import, naming its winner.
    package var headlines: [String] {
        let scenarios = Set(kinds.map(\.scenario)).count
        return kinds.map { $0.sentence(swept: axes.swept, scenarios: scenarios) }
    }

    /// The page's sentences: per swept dimension, where the winner changes or that it does not.
    package var sentences: [String] {
        axes.swept.flatMap { dimension in WinnerChange.sentences(changes.filter { $0.dimension == dimension }) }
    }

    /// One group per identity of the runs that are not the ceiling's (each given its ceiling's
    /// runs); when only a ceiling ran, its own.
    private static func groups(_ runs: [ResultsRow], order: [String]) -> [AnswerGroup] {
        let identified = Array(zip(runs, RunIdentity.identities(of: runs)))
        let byIdentity = Dictionary(grouping: identified, by: \.1).mapValues { $0.map(\.0) }
        let ceilings = Dictionary(grouping: identified.filter(\.0.isCeiling), by: \.1).mapValues { $0.map(\.0) }
        let designs = identified.filter { !$0.0.isCeiling }
        var seen: Set<RunIdentity> = []
        let identities = (designs.isEmpty ? identified : designs).map(\.1).filter { seen.insert($0).inserted }
        return identities.map { identity in
            AnswerGroup(identity: identity, runs: byIdentity[identity] ?? [], ceilingRuns: ceilings[identity.ceilingIdentity] ?? [], order: order)
        }
    }

    /// By payload and probe, then along each dimension in the axes' order.
    private static func precedes(_ lhs: RunIdentity, _ rhs: RunIdentity, _ axes: SweepAxes) -> Bool {
        if (lhs.scenario, lhs.preload, lhs.probeHz) != (rhs.scenario, rhs.preload, rhs.probeHz) {
            return (lhs.scenario, lhs.preload, lhs.probeHz) < (rhs.scenario, rhs.preload, rhs.probeHz)
        }
        for dimension in Set(lhs.dimensions + rhs.dimensions).sorted() {
            let left = axes.position(of: lhs.value(dimension), along: dimension)
            let right = axes.position(of: rhs.value(dimension), along: dimension)
            if left != right { return left < right }
        }
        return false
    }

    /// For each swept dimension, each setting held while it varies over two values or more.
    private static func changes(_ groups: [AnswerGroup], _ axes: SweepAxes) -> [WinnerChange] {
        let payloads = Set(groups.map { "\($0.identity.scenario)\u{1F}\($0.identity.preload)\u{1F}\($0.identity.probeHz)" }).count
        return axes.swept.flatMap { dimension in
            held(groups, along: dimension).compactMap { context, members -> WinnerChange? in
                guard members.count > 1 else { return nil }
                let others = axes.swept.filter { $0 != dimension }
                return WinnerChange(
                    dimension: dimension, held: context.label(others, payload: payloads > 1),
                    steps: members.map { WinnerChange.Step(value: $0.identity.value(dimension), winner: $0.fastest?.strategy) })
            }
        }
    }

    /// The groups by what they hold while `dimension` varies, in page order; each list is in the dimension's order.
    static func held(_ groups: [AnswerGroup], along dimension: SweepDimension) -> [(RunIdentity, [AnswerGroup])] {
        var order: [RunIdentity] = []
        var members: [RunIdentity: [AnswerGroup]] = [:]
        for group in groups {
            let context = group.identity.opening(dimension)
            if members[context] == nil { order.append(context) }
            members[context, default: []].append(group)
        }
        return order.map { ($0, members[$0] ?? []) }
    }
}
