import Foundation
import ImportBenchSchema

/// Collects SVG elements as text. Attribute values and text content are escaped here, so chart
/// code cannot forget to; numbers are written with one decimal, which keeps output diffable.
struct SVGCanvas {
    private(set) var lines: [String] = []
    private var depth = 0

    /// An element without children: text content or self-closing.
    mutating func element(_ name: String, _ attributes: [(String, String)], text: String? = nil) {
        let opening = Self.opening(name, attributes)
        if let text {
            lines.append(indent + opening + ">" + XMLText.escape(text) + "</\(name)>")
        } else {
            lines.append(indent + opening + "/>")
        }
    }

    mutating func element(_ name: String, _ attributes: [(String, String)], text: String? = nil, children: (inout SVGCanvas) -> Void) {
        lines.append(indent + Self.opening(name, attributes) + ">" + (text.map(XMLText.escape) ?? ""))
        depth += 1
        children(&self)
        depth -= 1
        lines.append(indent + "</\(name)>")
    }

    private var indent: String { String(repeating: " ", count: depth) }

    private static func opening(_ name: String, _ attributes: [(String, String)]) -> String {
        "<" + name + attributes.map { " \($0.0)=\"\(XMLText.escape($0.1))\"" }.joined()
    }

    mutating func group(_ attributes: [(String, String)], _ children: (inout SVGCanvas) -> Void) {
        element("g", attributes, children: children)
    }

    mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, _ attributes: [(String, String)]) {
        element("line", [("x1", Self.number(x1)), ("y1", Self.number(y1)), ("x2", Self.number(x2)), ("y2", Self.number(y2))] + attributes)
    }

    mutating func text(_ content: String, x: Double, y: Double, _ attributes: [(String, String)]) {
        element("text", [("x", Self.number(x)), ("y", Self.number(y))] + attributes, text: content)
    }

    mutating func rect(x: Double, y: Double, width: Double, height: Double, _ attributes: [(String, String)]) {
        element("rect", [("x", Self.number(x)), ("y", Self.number(y)), ("width", Self.number(width)), ("height", Self.number(height))] + attributes)
    }

    static func number(_ value: Double) -> String {
        let text = String(format: "%.1f", value)
        if text.hasSuffix(".0") { return String(text.dropLast(2)) == "-0" ? "0" : String(text.dropLast(2)) }
        return text
    }

    static func points(_ points: [(Double, Double)]) -> String {
        points.map { "\(number($0.0)),\(number($0.1))" }.joined(separator: " ")
    }
}
