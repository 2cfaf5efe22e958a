import ImportBenchCore
import Testing

@testable import ImportBenchExpectations
@testable import ImportBenchReport

/// Verdicts on made-up results whose answer is known: counts exactly, timings only where their
/// interval is wholly on one side of the bound.
@Suite("Expectation verdicts")
struct ExpectationJudgeTests {
    /// Repetitions of two strategies, interleaved, `mine` taking `ratio` times `base`'s time with a
    /// spread of `spread` around it; `mine` fetches `fetches`.
    static func results(ratio: Double, spread: Double, repetitions: Int, fetches: Int = 3, scale: String = "1x") -> [RunResult] {
        (1...repetitions).flatMap { repetition -> [RunResult] in
            let wiggle = 1 + spread * (Double(repetition % 3) - 1)
            var base = sampleResult(strategy: "base", wall: 1.0 * (1 + 0.01 * Double(repetition % 2)), repetition: repetition)
            var mine = sampleResult(strategy: "mine", wall: ratio * wiggle, repetition: repetition)
            base.scale = scale
            mine.scale = scale
            let factor = Scale(parsing: scale)?.factor ?? 1
            base.measurement.occurrences = Int(100 * factor)
            mine.measurement.occurrences = Int(100 * factor)
            mine.measurement.counts.fetches = fetches
            return [base, mine]
        }
    }

    static func verdict(_ text: String, _ results: [RunResult]) throws -> ExpectationVerdict {
        try #require(ExpectationJudge.judge([ExpectationRule(parsing: text, origin: .option(index: 1))], results).first)
    }

    @Test(
        "a count is held or broken exactly, against a fact of the run or a number",
        arguments: [
            ("mine.fetch_count <= 0.03 * records", 3, ExpectationVerdict.Outcome.held),
            ("mine.fetch_count <= 0.03 * records", 4, .broken),
            ("mine.fetch_count < 3", 3, .broken),
            ("mine.fetch_count >= 3", 3, .held),
        ])
    func counts(rule: String, fetches: Int, outcome: ExpectationVerdict.Outcome) throws {
        let verdict = try Self.verdict(rule, Self.results(ratio: 1, spread: 0, repetitions: 1, fetches: fetches))
        #expect(verdict.outcome == outcome)
        #expect(verdict.measured == Double(fetches) && verdict.interval == nil)
    }

    @Test(
        "a ratio of timings is decided only by its interval",
        arguments: [
            (1.10, 0.02, 7, ExpectationVerdict.Outcome.held),
            (1.50, 0.02, 7, .broken),
            (1.30, 0.05, 7, .undecided),
            (1.10, 0.02, 5, .undecided),
        ])
    func ratios(ratio: Double, spread: Double, repetitions: Int, outcome: ExpectationVerdict.Outcome) throws {
        let verdict = try Self.verdict("mine.wall_s <= 1.3 * base.wall_s", Self.results(ratio: ratio, spread: spread, repetitions: repetitions))
        #expect(verdict.outcome == outcome, "\(verdict)")
        #expect(abs(verdict.measured / ratio - 1) < 0.1)
        if repetitions >= PairedRankTest.minimumPairs {
            let interval = try #require(verdict.interval)
            #expect(interval.contains(verdict.measured))
        }
        if outcome != .undecided { #expect(verdict.repetitionsToDecide == nil) }
        if repetitions < PairedRankTest.minimumPairs { #expect(verdict.repetitionsToDecide == PairedRankTest.minimumPairs) }
    }

    @Test("the signed-rank interval: the whole range at 6 pairs (96.9 %), the 9th Walsh average from each end at 10 (95.1 %)")
    func signedRank() throws {
        let six = try #require(PairedRankTest([0.3, -0.1, 0.2, 0.05, 0.0, 0.1]))
        #expect(six.lower == -0.1 && six.upper == 0.3 && abs(six.coverage - 62.0 / 64) < 1e-12)
        let differences = (1...10).map(Double.init)
        let walsh = differences.indices.flatMap { i in differences.indices.filter { $0 >= i }.map { (differences[i] + differences[$0]) / 2 } }
            .sorted()
        let ten = try #require(PairedRankTest(differences))
        #expect(ten.lower == walsh[8] && ten.upper == walsh[walsh.count - 9] && ten.estimate == 5.5)
        #expect(abs(ten.coverage - (1 - 2 * 25.0 / 1024)) < 1e-12)
        #expect(PairedRankTest([0.1, 0.2, 0.3, 0.4, 0.5]) == nil)
    }

    @Test("growth of a count across scales is its exact exponent; zero everywhere does not grow")
    func growthOfCounts() throws {
        // Fetches proportional to scale squared: an N+1 that worsens with the payload.
        let sweep = [(1.0, "1x"), (2.0, "2x"), (4.0, "4x")].flatMap { factor, label in
            Self.results(ratio: 1, spread: 0, repetitions: 1, fetches: Int(10 * factor * factor), scale: label)
        }
        let quadratic = try Self.verdict("growth(mine.fetch_count) <= 1.05", sweep)
        #expect(quadratic.outcome == .broken)
        #expect(abs(quadratic.measured - 2) < 1e-9)
        let none = try Self.verdict(
            "growth(base.fetch_count) <= 1.05",
            sweep.map {
                var run = $0
                run.measurement.counts.fetches = 0
                return run
            })
        #expect(none.outcome == .held && none.measured == 0)
        #expect(
            ExpectationJudge.judge(
                [try ExpectationRule(parsing: "growth(mine.wall_s) <= 1.1", origin: .option(index: 1))],
                Self.results(ratio: 1, spread: 0, repetitions: 3)
            ).isEmpty)
    }

    @Test("growth of a timing is judged from the range of the per-repetition exponents")
    func growthOfTimes() throws {
        let sweep = [(1.0, "1x"), (2.0, "2x")].flatMap { factor, label in
            Self.results(ratio: factor, spread: 0.01, repetitions: 5, scale: label)
        }
        let linear = try Self.verdict("growth(mine.wall_s) <= 1.15", sweep)
        #expect(linear.outcome == .held)
        let interval = try #require(linear.interval)
        #expect(interval.lowerBound <= linear.measured && linear.measured <= interval.upperBound)
        #expect(try Self.verdict("growth(mine.wall_s) <= 0.5", sweep).outcome == .broken)
    }

    @Test("the verdicts' CSV has a row per verdict, the rule's text neutralised for spreadsheets")
    func csv() throws {
        var rule = try ExpectationRule(parsing: "mine.fetch_count <= 3", origin: .option(index: 1))
        rule.reason = "=cmd()"
        let verdicts = ExpectationJudge.judge([rule], Self.results(ratio: 1, spread: 0, repetitions: 1))
        let rows = parseCSV(ExpectationReport.csv(verdicts))
        #expect(rows.first == ExpectationReport.csvColumns)
        #expect(rows.count == 2 && rows[1][2] == "'=cmd()" && rows[1][4] == "held" && rows[1][1] == "--expect #1")
    }
}
