import ImportBenchCore
import ImportBenchReport

/// A rule refused before anything runs, located: where it was given, its text, and the column
/// (1-based) where reading it stopped. The CLI makes it a usage error (exit 64).
package struct ExpectationError: Error, Equatable, Sendable, CustomStringConvertible {
    package let origin: ExpectationOrigin
    /// The rule's text; empty for a problem of the whole file.
    package let text: String
    /// Where in `text` the problem starts; nil for a problem of the whole rule or file.
    package let position: Int?
    package let problem: ExpectationProblem

    package var description: String {
        let place = text.isEmpty ? "\(origin)" : "\(origin) '\(text)'" + (position.map { " at column \($0)" } ?? "")
        return "\(place): \(problem)"
    }
}

/// What is wrong with a rule, with the values a fix needs.
package enum ExpectationProblem: Equatable, Sendable, CustomStringConvertible {
    /// Reading stopped where `part` was expected; `found` is what stands there.
    case expected(ExpectationPart, found: String)
    /// A metric that is no numeric column of the results.
    case unknownMetric(String, known: [String])
    /// A strategy the run does not measure.
    case unknownStrategy(String, planned: [String])
    /// `growth(...)` compared with anything but a number.
    case growthNeedsNumber
    /// A multiplier that is not a positive finite number.
    case badFactor(String)
    /// An expectations file that cannot be read, or is not the YAML it should be: why.
    case unreadableFile(String)
    /// An entry of the file that is neither a rule nor a `rule:` with a `reason:`.
    case badEntry(String)

    package var description: String {
        switch self {
        case .expected(let part, let found):
            return "expected \(part), found \(found.isEmpty ? "the end of the rule" : "'\(found)'")"
        case .unknownMetric(let name, let known):
            return "no metric '\(name)'; a rule compares numeric columns of the results: \(known.joined(separator: ", "))"
        case .unknownStrategy(let name, let planned):
            return "the run measures no strategy '\(name)'; it measures \(planned.joined(separator: ", ")) (add it with --strategy)"
        case .growthNeedsNumber:
            return "growth(...) is an exponent across the run's scales: compare it with a number, such as growth(x.fetch_count) <= 1.05"
        case .badFactor(let text):
            return "'\(text)' is no positive number to multiply by"
        case .unreadableFile(let why):
            return why
        case .badEntry(let what):
            return "\(what); each entry is a rule, or a mapping with rule: and reason:"
        }
    }
}

/// A part of a rule's grammar, as a message names it.
package enum ExpectationPart: String, Equatable, Sendable, CustomStringConvertible {
    case metric = "a strategy's metric, as strategy.column"
    case comparison = "one of <=, <, >=, >"
    case bound = "a number, a strategy's metric, or a fact of the run such as records"
    case operand = "a strategy's metric or a fact of the run such as records"
    case closingParenthesis = "')'"
    case end = "the end of the rule"

    package var description: String { rawValue }
}
