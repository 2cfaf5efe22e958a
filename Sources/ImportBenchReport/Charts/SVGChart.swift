import Foundation

/// The frame every chart shares: title, subtitle, plot area with grid and ticks, axis titles and a
/// legend on the right. Sized from estimated text widths so labels neither clip nor overlap;
/// chart types draw their marks into the plot area it hands them.
struct SVGChart {
    struct LegendEntry {
        var label: String
        var colour: String
        var marker: ChartPalette.Marker?
        var dashed = false
        /// An entry without a line: a strategy that cannot be drawn (no fetches on a log axis).
        var lineless = false
        /// A filled square instead of a line, for bars.
        var swatch = false
        var strategy: String?
    }

    /// Ticks along one axis: where (0 at the start, 1 at the end) and what they read.
    struct Ticks {
        var positions: [Double]
        var labels: [String]
        /// Gridlines across the plot at each tick (numeric axes); categories get none.
        var grid = true
    }

    /// The plot area in SVG coordinates; y grows downwards, fractions grow upwards.
    struct Plot {
        let left: Double
        let top: Double
        let width: Double
        let height: Double
        var right: Double { left + width }
        var bottom: Double { top + height }
        func x(_ fraction: Double) -> Double { left + fraction * width }
        func y(_ fraction: Double) -> Double { bottom - fraction * height }
    }

    static let width = 600.0
    static let fontFamily = "DejaVu Sans, Helvetica, Arial, sans-serif"

    var kind: String
    var title: String
    var subtitle: [String]
    var xTitle: String
    var yTitle: String
    var xTicks: Ticks
    var yTicks: Ticks
    var legend: [LegendEntry]
    var attributes: [(String, String)] = []

    /// Width of `text` at `size` px in a sans-serif face, erring wide.
    static func textWidth(_ text: String, size: Double) -> Double { Double(text.count) * size * 0.6 }

    func render(_ marks: (inout SVGCanvas, Plot) -> Void) -> String {
        // A common minimum keeps plot areas the same width across most charts of a report.
        let legendWidth = min(250, max(170, (legend.map { Self.textWidth($0.label, size: 12) }.max() ?? 0) + 34))
        let tickWidth = yTicks.labels.map { Self.textWidth($0, size: 11) }.max() ?? 0
        let left = 22 + 6 + tickWidth + 6
        let top = 34 + 15 * Double(subtitle.count) + 10
        let right = Self.width - (legend.isEmpty ? 16 : legendWidth + 22)
        let plotHeight = max(230, Double(legend.count) * 18 + 8)
        let plot = Plot(left: left, top: top, width: right - left, height: plotHeight)
        let height = plot.bottom + 50

        var canvas = SVGCanvas()
        let root: [(String, String)] =
            [
                ("xmlns", "http://www.w3.org/2000/svg"), ("class", "chart"), ("data-chart", kind),
                ("width", SVGCanvas.number(Self.width)), ("height", SVGCanvas.number(height)),
                ("viewBox", "0 0 \(SVGCanvas.number(Self.width)) \(SVGCanvas.number(height))"),
                ("font-family", Self.fontFamily), ("font-size", "12"), ("role", "img"),
            ] + attributes
        canvas.element("svg", root) { canvas in
            canvas.element("title", [], text: title)
            canvas.rect(x: 0, y: 0, width: Self.width, height: height, [("fill", "#ffffff")])
            canvas.text(title, x: 12, y: 22, [("class", "chart-title"), ("font-size", "15"), ("font-weight", "bold"), ("fill", "#222222")])
            // The first line names the panel's settings, what tells panels apart; the rest is fine print.
            for (index, line) in subtitle.enumerated() {
                canvas.text(
                    line, x: 12, y: 40 + 15 * Double(index),
                    [
                        ("class", "chart-subtitle"), ("font-size", index == 0 ? "12" : "11.5"), ("fill", index == 0 ? "#333333" : "#777777"),
                    ])
            }
            drawGrid(&canvas, plot)
            marks(&canvas, plot)
            drawAxes(&canvas, plot)
            drawLegend(&canvas, plot, x: right + 18)
        }
        return canvas.lines.joined(separator: "\n") + "\n"
    }

    private func drawGrid(_ canvas: inout SVGCanvas, _ plot: Plot) {
        canvas.group([("class", "grid"), ("stroke", "#e6e6e6"), ("stroke-width", "1")]) { canvas in
            if yTicks.grid {
                for position in yTicks.positions { canvas.line(x1: plot.left, y1: plot.y(position), x2: plot.right, y2: plot.y(position), []) }
            }
            if xTicks.grid {
                for position in xTicks.positions { canvas.line(x1: plot.x(position), y1: plot.top, x2: plot.x(position), y2: plot.bottom, []) }
            }
        }
    }

    private func drawAxes(_ canvas: inout SVGCanvas, _ plot: Plot) {
        canvas.group([("class", "axes"), ("fill", "#444444"), ("font-size", "11")]) { canvas in
            canvas.line(x1: plot.left, y1: plot.bottom, x2: plot.right, y2: plot.bottom, [("stroke", "#888888")])
            canvas.line(x1: plot.left, y1: plot.top, x2: plot.left, y2: plot.bottom, [("stroke", "#888888")])
            // Labels that would touch their neighbours are thinned; ticks and gridlines stay.
            let widest = xTicks.labels.map { Self.textWidth($0, size: 11) }.max() ?? 0
            let gaps = zip(xTicks.positions.dropFirst(), xTicks.positions).map { ($0 - $1) * plot.width }
            let every = max(1, Int(((widest + 8) / max(gaps.min() ?? plot.width, 1)).rounded(.up)))
            for (index, position) in xTicks.positions.enumerated() {
                let x = plot.x(position)
                canvas.line(x1: x, y1: plot.bottom, x2: x, y2: plot.bottom + 4, [("stroke", "#888888")])
                if index % every == 0 {
                    canvas.text(xTicks.labels[index], x: x, y: plot.bottom + 17, [("class", "tick-label"), ("text-anchor", "middle")])
                }
            }
            for (index, position) in yTicks.positions.enumerated() {
                let y = plot.y(position)
                canvas.line(x1: plot.left - 4, y1: y, x2: plot.left, y2: y, [("stroke", "#888888")])
                canvas.text(yTicks.labels[index], x: plot.left - 7, y: y + 4, [("class", "tick-label"), ("text-anchor", "end")])
            }
        }
        canvas.text(
            xTitle, x: plot.left + plot.width / 2, y: plot.bottom + 38,
            [
                ("class", "axis-label"), ("text-anchor", "middle"), ("font-size", "12"), ("fill", "#222222"),
            ])
        let middle = plot.top + plot.height / 2
        canvas.text(
            yTitle, x: 16, y: middle,
            [
                ("class", "axis-label"), ("text-anchor", "middle"), ("font-size", "12"), ("fill", "#222222"),
                ("transform", "rotate(-90 16 \(SVGCanvas.number(middle)))"),
            ])
    }

    private func drawLegend(_ canvas: inout SVGCanvas, _ plot: Plot, x: Double) {
        guard !legend.isEmpty else { return }
        canvas.group([("class", "legend")]) { canvas in
            for (index, entry) in legend.enumerated() {
                let y = plot.top + 8 + Double(index) * 18
                var attributes: [(String, String)] = [("class", entry.lineless ? "legend-entry absent" : "legend-entry")]
                if let strategy = entry.strategy { attributes.append(("data-strategy", strategy)) }
                canvas.group(attributes) { canvas in
                    if entry.swatch {
                        canvas.rect(x: x + 5, y: y - 6, width: 12, height: 12, [("fill", entry.colour)])
                    } else if !entry.lineless {
                        var stroke: [(String, String)] = [("stroke", entry.colour), ("stroke-width", "2")]
                        if entry.dashed { stroke.append(("stroke-dasharray", "5 3")) }
                        canvas.line(x1: x, y1: y, x2: x + 22, y2: y, stroke)
                    }
                    if let marker = entry.marker {
                        Self.drawMarker(&canvas, marker, x: x + 11, y: y, colour: entry.colour, hollow: entry.lineless, tooltip: nil)
                    }
                    canvas.text(entry.label, x: x + 28, y: y + 4, [("fill", entry.lineless ? "#777777" : "#222222")])
                }
            }
        }
    }

    static func drawMarker(
        _ canvas: inout SVGCanvas, _ marker: ChartPalette.Marker, x: Double, y: Double, colour: String, hollow: Bool = false, tooltip: String?
    ) {
        let r = 4.0
        let shape: (String, [(String, String)])
        switch marker {
        case .circle:
            shape = ("circle", [("cx", SVGCanvas.number(x)), ("cy", SVGCanvas.number(y)), ("r", SVGCanvas.number(r))])
        case .square:
            shape = (
                "rect",
                [
                    ("x", SVGCanvas.number(x - r * 0.9)), ("y", SVGCanvas.number(y - r * 0.9)),
                    ("width", SVGCanvas.number(r * 1.8)), ("height", SVGCanvas.number(r * 1.8)),
                ]
            )
        case .triangle:
            shape = ("polygon", [("points", SVGCanvas.points([(x, y - r * 1.2), (x + r * 1.1, y + r * 0.8), (x - r * 1.1, y + r * 0.8)]))])
        case .invertedTriangle:
            shape = ("polygon", [("points", SVGCanvas.points([(x, y + r * 1.2), (x + r * 1.1, y - r * 0.8), (x - r * 1.1, y - r * 0.8)]))])
        case .diamond:
            shape = ("polygon", [("points", SVGCanvas.points([(x, y - r * 1.3), (x + r * 1.1, y), (x, y + r * 1.3), (x - r * 1.1, y)]))])
        }
        let paint: [(String, String)] = [
            ("class", "marker"), ("fill", hollow ? "#ffffff" : colour), ("stroke", hollow ? colour : "#ffffff"),
            ("stroke-width", hollow ? "1.5" : "1"),
        ]
        if let tooltip {
            canvas.element(shape.0, shape.1 + paint) { canvas in canvas.element("title", [], text: tooltip) }
        } else {
            canvas.element(shape.0, shape.1 + paint)
        }
    }

    /// A cross over a point that must not be read as a result (an invalid run).
    static func drawCross(_ canvas: inout SVGCanvas, x: Double, y: Double) {
        let r = 6.0
        canvas.group([("class", "invalid-mark"), ("stroke", "#b00020"), ("stroke-width", "2")]) { canvas in
            canvas.line(x1: x - r, y1: y - r, x2: x + r, y2: y + r, [])
            canvas.line(x1: x - r, y1: y + r, x2: x + r, y2: y - r, [])
        }
    }

    /// A vertical min-max whisker with short caps.
    static func drawWhisker(_ canvas: inout SVGCanvas, x: Double, low: Double, high: Double, colour: String) {
        guard abs(high - low) >= 1 else { return }
        canvas.group([("class", "whisker"), ("stroke", colour), ("stroke-width", "1.2")]) { canvas in
            canvas.line(x1: x, y1: low, x2: x, y2: high, [])
            canvas.line(x1: x - 3, y1: low, x2: x + 3, y2: low, [])
            canvas.line(x1: x - 3, y1: high, x2: x + 3, y2: high, [])
        }
    }
}
