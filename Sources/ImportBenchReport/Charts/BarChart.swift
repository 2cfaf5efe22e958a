/// Grouped bars: one group per category (a scale), one bar per strategy in each, coloured as the
/// strategy is everywhere else. Medians, with a min-max whisker when repetitions differ.
struct BarChart {
    struct Bar {
        var category: Int
        var value: Double
        var low: Double
        var high: Double
        var tooltip: String
    }

    struct Series {
        var strategy: String
        var label: String
        var bars: [Bar]
    }

    var kind: String
    var title: String
    var subtitle: [String]
    var xTitle: String
    var yTitle: String
    var categories: [String]
    var yAxis: ChartAxis
    var series: [Series]
    var palette: ChartPalette

    func render() -> String {
        let count = Double(max(categories.count, 1))
        let xTicks = SVGChart.Ticks(positions: categories.indices.map { (Double($0) + 0.5) / count }, labels: categories, grid: false)
        let legend = series.map {
            SVGChart.LegendEntry(label: $0.label, colour: palette.colour($0.strategy), marker: nil, swatch: true, strategy: $0.strategy)
        }
        let frame = SVGChart(
            kind: kind, title: title, subtitle: subtitle, xTitle: xTitle, yTitle: yTitle, xTicks: xTicks,
            yTicks: SVGChart.Ticks(positions: yAxis.ticks.map(yAxis.fraction), labels: yAxis.tickLabels), legend: legend)
        return frame.render { canvas, plot in
            let band = plot.width / count
            let barWidth = min(28, band * 0.8 / Double(max(series.count, 1)))
            let groupWidth = barWidth * Double(series.count)
            for (index, line) in series.enumerated() {
                let colour = palette.colour(line.strategy)
                canvas.group([("class", "series"), ("data-strategy", line.strategy), ("fill", colour)]) { canvas in
                    for bar in line.bars {
                        let x = plot.left + band * Double(bar.category) + (band - groupWidth) / 2 + barWidth * Double(index)
                        let top = plot.y(yAxis.fraction(bar.value))
                        canvas.element(
                            "rect",
                            [
                                ("class", "bar"), ("x", SVGCanvas.number(x + 0.5)), ("y", SVGCanvas.number(top)),
                                ("width", SVGCanvas.number(max(barWidth - 1, 1))), ("height", SVGCanvas.number(max(plot.bottom - top, 0))),
                            ]
                        ) { canvas in canvas.element("title", [], text: bar.tooltip) }
                        SVGChart.drawWhisker(
                            &canvas, x: x + barWidth / 2, low: plot.y(yAxis.fraction(bar.low)), high: plot.y(yAxis.fraction(bar.high)),
                            colour: "#333333")
                    }
                }
            }
        }
    }
}
