import Foundation

/// A payload size as a multiple of the scenario's base load: `0.5x`, `2x`, `100x` or a bare `2`.
package struct Scale: Hashable, Sendable, CustomStringConvertible {
    package let factor: Double

    package init?(factor: Double) {
        guard factor.isFinite, factor > 0 else { return nil }
        self.factor = factor
    }

    package init?(parsing text: String) {
        var body = text.trimmingCharacters(in: .whitespaces).lowercased()
        if body.hasSuffix("x") { body.removeLast() }
        guard let factor = Double(body) else { return nil }
        self.init(factor: factor)
    }

    private init(validated factor: Double) {
        self.factor = factor
    }

    package static let base = Scale(validated: 1)

    /// Canonical label used in results: `2x`, `0.5x`.
    package var description: String {
        let rounded = factor.rounded()
        return rounded == factor && abs(factor) < 1e15 ? "\(Int(rounded))x" : "\(factor)x"
    }
}

/// As its text (`2x`), as the command line and the CSV write it.
extension Scale: CodableAsText {
    package static let textMeaning = "a scale"
}
