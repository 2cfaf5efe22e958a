import Foundation
import ImportBenchCore
import ImportBenchReport

extension ExpectationRule {
    /// Reads a rule: `[growth(]strategy.metric[)] OP bound`, where the bound is a number, or a
    /// strategy's metric or a fact of the run, optionally after `number *`. Metrics are the results'
    /// numeric columns (`ResultColumns`); which strategies exist is checked against the run later.
    package init(parsing text: String, origin: ExpectationOrigin, reason: String? = nil) throws(ExpectationError) {
        var scanner = RuleScanner(text.trimmingCharacters(in: .whitespaces))
        do {
            let (isGrowth, left, comparison, factor, bound) = try Self.parts(&scanner)
            self.init(
                text: scanner.text, origin: origin, reason: reason, isGrowth: isGrowth, left: left, comparison: comparison, factor: factor,
                bound: bound)
        } catch {
            throw ExpectationError(origin: origin, text: scanner.text, position: error.position, problem: error.problem)
        }
    }

    /// The rule's parts in the order written; the first thing out of place is located.
    private static func parts(
        _ scanner: inout RuleScanner
    ) throws(RuleScanner.Failure) -> (Bool, Metric, Comparison, Double, Bound) {
        let isGrowth = scanner.consumeWord("growth") && scanner.consume("(")
        if !isGrowth { scanner.rewind() }
        let left = try scanner.metric()
        if isGrowth, !scanner.consume(")") { throw scanner.failure(.expected(.closingParenthesis, found: scanner.restAfterSpaces)) }
        guard let comparison = scanner.comparison() else { throw scanner.failure(.expected(.comparison, found: scanner.restAfterSpaces)) }
        scanner.skipSpaces()
        let boundStart = scanner.position
        let (factor, bound) = try scanner.bound()
        guard scanner.atEnd else { throw scanner.failure(.expected(.end, found: scanner.restAfterSpaces)) }
        if isGrowth, bound != .number { throw RuleScanner.Failure(problem: .growthNeedsNumber, position: boundStart) }
        return (isGrowth, left, comparison, factor, bound)
    }

    /// The columns a rule can name: the results' numeric metrics and facts (not the settings and
    /// environment that describe a run, such as its seed or repetition).
    /// `cpu_s`, the gate's CPU time (user plus system), is one too.
    package static func numericColumns() -> [String] {
        ResultColumns.columns.filter { $0.unit.isNumeric && $0.judgement != .none }.map(\.name) + [ResultTable.cpuSeconds]
    }
}

/// Walks a rule's text, character by character, remembering where each part began.
struct RuleScanner {
    struct Failure: Error {
        let problem: ExpectationProblem
        let position: Int
    }

    let text: String
    private let characters: [Character]
    private var index = 0
    private var mark = 0

    init(_ text: String) {
        self.text = text
        characters = Array(text)
    }

    /// 1-based column of the next character.
    var position: Int { index + 1 }
    var atEnd: Bool {
        mutating get {
            skipSpaces()
            return index == characters.count
        }
    }
    var rest: String { String(characters[min(index, characters.count)...]) }
    var restAfterSpaces: String {
        mutating get {
            skipSpaces()
            return rest
        }
    }

    mutating func rewind() { index = mark }

    /// `problem` at the next character that is not a space.
    mutating func failure(_ problem: ExpectationProblem) -> Failure {
        skipSpaces()
        return Failure(problem: problem, position: position)
    }

    mutating func skipSpaces() {
        while index < characters.count, characters[index].isWhitespace { index += 1 }
    }

    mutating func consume(_ symbol: String) -> Bool {
        skipSpaces()
        let symbol = Array(symbol)
        guard index + symbol.count <= characters.count, Array(characters[index..<index + symbol.count]) == symbol else { return false }
        index += symbol.count
        return true
    }

    /// `word` as a whole word; the start is remembered for `rewind`.
    mutating func consumeWord(_ word: String) -> Bool {
        skipSpaces()
        mark = index
        let start = index
        let name = self.name(allowing: "-_")
        if name == word { return true }
        index = start
        return false
    }

    /// Letters, digits and `extra`, starting with a letter.
    private mutating func name(allowing extra: String) -> String {
        let start = index
        guard index < characters.count, characters[index].isLetter, characters[index].isASCII else { return "" }
        while index < characters.count,
            (characters[index].isASCII && (characters[index].isLetter || characters[index].isNumber)) || extra.contains(characters[index])
        {
            index += 1
        }
        return String(characters[start..<index])
    }

    /// `strategy.column`, the column a numeric one of the results.
    mutating func metric() throws(Failure) -> ExpectationRule.Metric {
        skipSpaces()
        let start = position
        let strategy = name(allowing: "-")
        guard !strategy.isEmpty, consume(".") else {
            index = start - 1
            throw Failure(problem: .expected(.metric, found: rest), position: start)
        }
        let columnStart = position
        let column = name(allowing: "_")
        try checkColumn(column, at: columnStart)
        return ExpectationRule.Metric(strategy: strategy, column: column, position: start)
    }

    private func checkColumn(_ column: String, at position: Int) throws(Failure) {
        let known = ExpectationRule.numericColumns()
        guard known.contains(column) else { throw Failure(problem: .unknownMetric(column, known: known), position: position) }
    }

    mutating func comparison() -> ExpectationRule.Comparison? {
        // The two-character comparisons first, so `<=` is not read as `<`.
        for comparison in [ExpectationRule.Comparison.atMost, .atLeast, .below, .above] where consume(comparison.rawValue) {
            return comparison
        }
        return nil
    }

    /// `number`, `number * operand`, or `operand`.
    mutating func bound() throws(Failure) -> (Double, ExpectationRule.Bound) {
        skipSpaces()
        let start = position
        if let number = number() {
            guard consume("*") else { return (number, .number) }
            guard number.isFinite, number > 0 else { throw Failure(problem: .badFactor(String(number)), position: start) }
            return (number, try operand())
        }
        guard index < characters.count, characters[index].isLetter else { throw Failure(problem: .expected(.bound, found: rest), position: start) }
        return (1, try operand())
    }

    /// A strategy's metric, or a fact of the run (a column alone).
    private mutating func operand() throws(Failure) -> ExpectationRule.Bound {
        skipSpaces()
        let start = index
        let first = name(allowing: "-_")
        guard !first.isEmpty else { throw Failure(problem: .expected(.operand, found: rest), position: start + 1) }
        if index < characters.count, characters[index] == "." {
            index = start
            return .metric(try metric())
        }
        try checkColumn(first, at: start + 1)
        return .fact(column: first, position: start + 1)
    }

    /// A decimal number (`1.3`, `0.01`, `2e-3`), or nil with nothing consumed.
    private mutating func number() -> Double? {
        let start = index
        while index < characters.count, characters[index].isNumber || ".eE+-".contains(characters[index]) {
            if "+-".contains(characters[index]), index > start, !"eE".contains(characters[index - 1]) { break }
            index += 1
        }
        guard index > start, let value = Double(String(characters[start..<index])) else {
            index = start
            return nil
        }
        return value
    }
}
