import ImportBenchCore
import Testing

@testable import ImportBenchExpectations
@testable import ImportBenchReport

/// Rules as a team writes them: parsed into their parts, or refused at the column where they go wrong.
@Suite("Expectation rules")
struct ExpectationRuleTests {
    @Test(
        "a rule's parts",
        arguments: [
            ("mine.wall_s <= 1.3 * prewarm.wall_s", false, "mine", ExpectationRule.Comparison.atMost, 1.3, "prewarm.wall_s"),
            ("grdb-cache.wall_s<0.8*grdb-naive.wall_s", false, "grdb-cache", .below, 0.8, "grdb-naive.wall_s"),
            ("mine.fetch_count <= 0.01 * records", false, "mine", .atMost, 0.01, "records"),
            ("mine.statement_count >= unique_records", false, "mine", .atLeast, 1, "unique_records"),
            ("growth(mine.wall_s) <= 1.15", true, "mine", .atMost, 1.15, ""),
            ("  growth ( mine.fetch_count ) > 2e-1 ", true, "mine", .above, 0.2, ""),
        ])
    func parts(text: String, growth: Bool, strategy: String, comparison: ExpectationRule.Comparison, factor: Double, bound: String) throws {
        let rule = try ExpectationRule(parsing: text, origin: .option(index: 1))
        #expect(rule.isGrowth == growth)
        #expect(rule.left.strategy == strategy)
        #expect(rule.comparison == comparison)
        #expect(rule.factor == factor)
        switch rule.bound {
        case .metric(let metric): #expect(metric.description == bound)
        case .fact(let column, _): #expect(column == bound)
        case .number: #expect(bound.isEmpty)
        }
    }

    @Test(
        "a malformed rule is refused at its column, with what was expected",
        arguments: [
            ("mine.wall_s =< 2", 13, ExpectationProblem.expected(.comparison, found: "=< 2")),
            ("mine <= 2", 1, .expected(.metric, found: "mine <= 2")),
            ("mine.wall_z <= 2", 6, .unknownMetric("wall_z", known: ExpectationRule.numericColumns())),
            ("mine.wall_s <= 2 * ", 19, .expected(.operand, found: "")),
            ("mine.wall_s <= 1.3 * prewarm.wall_z", 30, .unknownMetric("wall_z", known: ExpectationRule.numericColumns())),
            ("growth(mine.wall_s <= 2", 20, .expected(.closingParenthesis, found: "<= 2")),
            ("growth(mine.wall_s) <= 2 * prewarm.wall_s", 24, .growthNeedsNumber),
            ("mine.wall_s <= 2 extra", 18, .expected(.end, found: "extra")),
            ("mine.wall_s <= -1 * prewarm.wall_s", 16, .badFactor("-1.0")),
        ])
    func refused(text: String, column: Int, problem: ExpectationProblem) {
        #expect(
            throws: ExpectationError(origin: .option(index: 2), text: text.trimmingCharacters(in: .whitespaces), position: column, problem: problem)
        ) {
            try ExpectationRule(parsing: text, origin: .option(index: 2))
        }
    }

    @Test("a rule naming a strategy the run does not measure is refused at that name")
    func unknownStrategy() throws {
        let rule = try ExpectationRule(parsing: "mine.wall_s <= 1.3 * prewarm.wall_s", origin: .option(index: 1))
        #expect(
            throws: ExpectationError(
                origin: .option(index: 1), text: rule.text, position: 22, problem: .unknownStrategy("prewarm", planned: ["mine", "ceiling"]))
        ) {
            try ExpectationJudge.check([rule], planned: ["mine", "ceiling"])
        }
        try ExpectationJudge.check([rule], planned: ["mine", "prewarm"])
    }

    @Test("an expectations file: rules and rule-reason mappings, each located at its line")
    func file() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(
            """
            # why each holds is in the README
            - rule: mine.wall_s <= 1.3 * prewarm.wall_s
              reason: within a third of prewarm
            - mine.fetch_count <= 0.01 * records
            """, to: "rules.yml")
        let rules = try ExpectationFile.load(path: path)
        #expect(rules.map(\.origin) == [.file(path: path, line: 2), .file(path: path, line: 4)])
        #expect(rules.map(\.reason) == ["within a third of prewarm", nil])
        let bad = try folder.write("- rule: mine.wall_s <= 2\n- rule: mine.wall_s <=\n", to: "bad.yml")
        #expect(
            throws: ExpectationError(origin: .file(path: bad, line: 2), text: "mine.wall_s <=", position: 15, problem: .expected(.bound, found: ""))
        ) {
            try ExpectationFile.load(path: bad)
        }
        let unknown = try folder.write("- rule: mine.wall_s <= 2\n  why: no\n", to: "unknown.yml")
        #expect(throws: ExpectationError.self) { try ExpectationFile.load(path: unknown) }
    }
}
