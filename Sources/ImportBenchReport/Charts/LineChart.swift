/// Series of points joined by lines, one per strategy: over a numeric axis (time and fetches by
/// occurrences, log-log) or over categories (reader latency by batch size).
struct LineChart {
    enum XAxis {
        case numeric(ChartAxis)
        case categories([String])
    }

    struct Point {
        /// The numeric value, or the category's index.
        var x: Double
        var y: Double
        var low: Double
        var high: Double
        var tooltip: String
        /// A run whose data differed from the payload's: drawn hollow and crossed out, never joined to its line.
        var invalid = false
    }

    struct Series {
        var strategy: String
        var label: String
        var points: [Point]
        var dashed = false
        /// Extra identifying attributes on the series group, such as data-journal.
        var attributes: [(String, String)] = []
    }

    /// A horizontal line marking a threshold, labelled inside the plot.
    struct ReferenceLine {
        var value: Double
        var label: String
    }

    var kind: String
    var title: String
    var subtitle: [String]
    var xTitle: String
    var yTitle: String
    var xAxis: XAxis
    var yAxis: ChartAxis
    var series: [Series]
    /// Legend-only entries for strategies that have nothing to draw, with the reason as label.
    var absent: [(strategy: String, label: String)] = []
    /// Legend entries explaining line styles (solid wal, dashed delete), drawn in grey after the strategies.
    var styles: [(label: String, dashed: Bool)] = []
    /// Legend lines in grey without a mark, such as what a crossed-out point means.
    var notes: [String] = []
    var reference: ReferenceLine?
    var palette: ChartPalette

    func render() -> String {
        let xTicks: SVGChart.Ticks
        let xFraction: (Double) -> Double
        switch xAxis {
        case .numeric(let axis):
            xTicks = SVGChart.Ticks(positions: axis.ticks.map(axis.fraction), labels: axis.tickLabels)
            xFraction = axis.fraction
        case .categories(let names):
            let count = Double(max(names.count, 1))
            xFraction = { ($0 + 0.5) / count }
            xTicks = SVGChart.Ticks(positions: names.indices.map { xFraction(Double($0)) }, labels: names, grid: false)
        }
        // One entry per strategy even when line styles split it into several series.
        var seen: Set<String> = []
        let legend =
            series.filter { seen.insert($0.strategy).inserted }.map {
                SVGChart.LegendEntry(
                    label: $0.label, colour: palette.colour($0.strategy), marker: palette.marker($0.strategy),
                    dashed: styles.isEmpty && $0.dashed, strategy: $0.strategy)
            }
            + absent.map {
                SVGChart.LegendEntry(
                    label: $0.label, colour: palette.colour($0.strategy), marker: palette.marker($0.strategy), lineless: true, strategy: $0.strategy)
            }
            + styles.map {
                SVGChart.LegendEntry(label: $0.label, colour: "#777777", marker: nil, dashed: $0.dashed)
            }
            + notes.map {
                SVGChart.LegendEntry(label: $0, colour: "#777777", marker: nil, lineless: true)
            }
        let frame = SVGChart(
            kind: kind, title: title, subtitle: subtitle, xTitle: xTitle, yTitle: yTitle, xTicks: xTicks,
            yTicks: SVGChart.Ticks(positions: yAxis.ticks.map(yAxis.fraction), labels: yAxis.tickLabels), legend: legend)
        return frame.render { canvas, plot in
            let placedSeries = series.map { line in
                (line, line.points.map { point in (point, plot.x(xFraction(point.x)), plot.y(yAxis.fraction(point.y))) })
            }
            let referenceY = reference.flatMap { yAxis.contains($0.value) ? plot.y(yAxis.fraction($0.value)) : nil }
            if let referenceY {
                canvas.line(
                    x1: plot.left, y1: referenceY, x2: plot.right, y2: referenceY,
                    [
                        ("class", "reference"), ("stroke", "#444444"), ("stroke-width", "1.2"), ("stroke-dasharray", "2 3"),
                    ])
            }
            for (line, placed) in placedSeries {
                let colour = palette.colour(line.strategy)
                canvas.group([("class", "series"), ("data-strategy", line.strategy)] + line.attributes) { canvas in
                    let joined = placed.filter { !$0.0.invalid }
                    if joined.count > 1 {
                        var stroke: [(String, String)] = [
                            ("points", SVGCanvas.points(joined.map { ($0.1, $0.2) })), ("fill", "none"), ("stroke", colour),
                            ("stroke-width", "2"), ("stroke-linejoin", "round"),
                        ]
                        if line.dashed { stroke.append(("stroke-dasharray", "6 4")) }
                        canvas.element("polyline", stroke)
                    }
                    for (point, x, y) in placed {
                        SVGChart.drawWhisker(
                            &canvas, x: x, low: plot.y(yAxis.fraction(point.low)), high: plot.y(yAxis.fraction(point.high)), colour: colour)
                        SVGChart.drawMarker(
                            &canvas, palette.marker(line.strategy), x: x, y: y, colour: colour, hollow: point.invalid, tooltip: point.tooltip)
                        if point.invalid { SVGChart.drawCross(&canvas, x: x, y: y) }
                    }
                }
            }
            // Drawn last, over the lines, where it hides the fewest of them.
            if let reference, let referenceY {
                let outlines = placedSeries.map { $0.1.map { ($0.1, $0.2) } }
                let spot = Self.labelSpot(for: reference.label, lineY: referenceY, plot: plot, avoiding: outlines)
                canvas.text(
                    reference.label, x: spot.x, y: spot.y,
                    [
                        ("class", "reference-label"), ("text-anchor", spot.anchor), ("font-size", "11"), ("fill", "#333333"),
                        ("stroke", "#ffffff"), ("stroke-width", "3"), ("paint-order", "stroke"),
                    ])
            }
        }
    }

    /// Where a reference line's label goes: above or below the line, at the plot's right or left end,
    /// whichever covers the fewest points of the series' outlines (sampled along each segment).
    static func labelSpot(
        for label: String, lineY: Double, plot: SVGChart.Plot, avoiding outlines: [[(Double, Double)]]
    ) -> (x: Double, y: Double, anchor: String) {
        let width = SVGChart.textWidth(label, size: 11)
        var samples: [(Double, Double)] = []
        for outline in outlines {
            samples += outline
            for (start, end) in zip(outline, outline.dropFirst()) {
                samples += (1..<12).map { step in
                    let t = Double(step) / 12
                    return (start.0 + (end.0 - start.0) * t, start.1 + (end.1 - start.1) * t)
                }
            }
        }
        let candidates: [(x: Double, y: Double, anchor: String)] = [
            (plot.right - 4, lineY - 5, "end"), (plot.left + 6, lineY - 5, "start"),
            (plot.right - 4, lineY + 14, "end"), (plot.left + 6, lineY + 14, "start"),
        ].filter { $0.y - 11 >= plot.top && $0.y + 2 <= plot.bottom }
        func covered(_ spot: (x: Double, y: Double, anchor: String)) -> Int {
            let left = spot.anchor == "end" ? spot.x - width : spot.x
            return samples.filter { $0.0 >= left - 4 && $0.0 <= left + width + 4 && $0.1 >= spot.y - 14 && $0.1 <= spot.y + 5 }.count
        }
        return candidates.min { covered($0) < covered($1) } ?? (plot.right - 4, lineY - 5, "end")
    }
}
