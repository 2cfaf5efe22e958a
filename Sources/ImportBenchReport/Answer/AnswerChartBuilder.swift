/// Draws the answer's charts: for each swept dimension and each setting held while it varies,
/// every strategy's multiple of the ceiling across the dimension's values, invalid runs crossed
/// out; for a SQLite setting also the wall times, as the setting moves the ceiling itself.
struct AnswerChartBuilder {
    let groups: [AnswerGroup]
    let axes: SweepAxes
    let palette: ChartPalette

    func build() -> [AnswerChart] {
        axes.swept.flatMap { dimension in
            AnswerReport.held(groups, along: dimension).filter { $0.1.count > 1 }.flatMap { context, members in
                let measures: [AnswerChart.Measure] = dimension.isStoreSetting ? [.ceilingMultiple, .wallTime] : [.ceilingMultiple]
                return measures.compactMap { chart($0, along: dimension, held: context, members) }
            }
        }
    }

    private func chart(_ measure: AnswerChart.Measure, along dimension: SweepDimension, held: RunIdentity, _ members: [AnswerGroup]) -> AnswerChart? {
        let series = self.series(measure, members, dimension)
        let values = series.flatMap { $0.points.map(\.y) }
        guard !values.isEmpty else { return nil }
        let spread = (values.max() ?? 1) / max(values.min() ?? 1, .leastNonzeroMagnitude)
        let logarithmic = values.allSatisfy { $0 > 0 } && spread >= 20
        let covered = measure == .ceilingMultiple ? values + [1] : values
        let yAxis = (logarithmic ? ChartAxis.logarithmic(covering: covered) : nil) ?? ChartAxis.linear(covering: covered)
        let others = axes.swept.filter { $0 != dimension }
        let what = measure == .ceilingMultiple ? "multiple of the ceiling" : "wall time"
        let chart = LineChart(
            kind: measure.rawValue, title: "\(held.label([], payload: true)): \(what) by \(dimension.name)",
            subtitle: [held.label(others, payload: false), "median of the repetitions per point; crossed out: invalid, never ranked"]
                .filter { !$0.isEmpty },
            xTitle: dimension.name, yTitle: (measure == .ceilingMultiple ? "× the ceiling's time" : "wall time, s") + (logarithmic ? " (log)" : ""),
            xAxis: .categories(members.map { dimension.describe($0.identity.value(dimension)) }), yAxis: yAxis, series: series,
            notes: series.contains { $0.points.contains(where: \.invalid) } ? ["× invalid run (not ranked)"] : [],
            reference: measure == .ceilingMultiple ? LineChart.ReferenceLine(value: 1, label: "the ceiling") : nil, palette: palette)
        let context = held.label(others, payload: false)
        let suffix = context.isEmpty ? "" : "-" + ChartReport.slug(context, fallback: "setting")
        let payload = ChartReport.slug(held.preload.isEmpty ? held.scenario : "\(held.scenario)-preload-\(held.preload)", fallback: "scenario")
        let slug = ChartReport.slug(dimension.name, fallback: "dimension")
        return AnswerChart(
            measure: measure, dimension: dimension, fileName: "\(payload)-\(measure.rawValue)-by-\(slug)\(suffix).svg", svg: chart.render())
    }

    /// One line per strategy with a time at any value; the ceiling has none for its own multiple (it is 1).
    private func series(_ measure: AnswerChart.Measure, _ members: [AnswerGroup], _ dimension: SweepDimension) -> [LineChart.Series] {
        let strategies = palette.sorted(members.flatMap { $0.standings.map(\.strategy) })
        return strategies.compactMap { strategy -> LineChart.Series? in
            let points = members.enumerated().compactMap { index, group -> LineChart.Point? in
                guard let standing = group.standings.first(where: { $0.strategy == strategy }),
                    measure == .wallTime || standing.status != .ceiling,
                    let y = measure == .ceilingMultiple ? standing.multipleOfCeiling : standing.wallSeconds
                else { return nil }
                return point(standing, y: y, at: index, value: dimension.describe(group.identity.value(dimension)), measure)
            }
            return points.isEmpty ? nil : LineChart.Series(strategy: strategy, label: strategy, points: points)
        }
    }

    private func point(_ standing: StrategyStanding, y: Double, at index: Int, value: String, _ measure: AnswerChart.Measure) -> LineChart.Point {
        let shown = measure == .ceilingMultiple ? String(format: "%.2f× the ceiling", y) : SummaryTable.seconds(y) + " s"
        let tooltip = "\(standing.strategy), \(value): \(shown)" + (standing.isInvalid ? ", " + standing.verdict : "")
        return LineChart.Point(x: Double(index), y: y, low: y, high: y, tooltip: tooltip, invalid: standing.isInvalid)
    }
}
