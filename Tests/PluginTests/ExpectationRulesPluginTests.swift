import Foundation
import ImportBench
// The harness that runs the plug-in, as bench does: not what a plug-in imports.
import ImportBenchCore
import ImportBenchExpectations
import Testing

/// The rules CI holds without a baseline, on a plug-in that regressed into an N+1 scan: its fetch
/// and growth rules break on every run, exactly, while a sound plug-in's hold.
@Suite("Expectations on a plug-in")
struct ExpectationRulesPluginTests {
    static let catalog: StrategyCatalog = {
        do {
            return try StrategyCatalog.builtIn.adding([OneUpsertStrategy.self, ScanPerOccurrenceStrategy.self])
        } catch {
            preconditionFailure("a test strategy's name is taken: \(error)")
        }
    }()

    /// Both plug-ins on chat at two scales, one repetition: counts are exact, so one is enough.
    static func sweep() throws -> [RunResult] {
        let strategies = try [OneUpsertStrategy.name, ScanPerOccurrenceStrategy.name].map { try #require(catalog.strategy(named: $0)) }
        return try [0.02, 0.04].flatMap { factor in
            try Benchmark(
                configuration: BenchmarkConfiguration(
                    spec: RunSpec(scenario: ChatScenario().source, payload: .generated(scale: try #require(Scale(factor: factor)), seed: 5)),
                    strategies: strategies, catalog: catalog)
            ).run().results
        }
    }

    @Test("an N+1 breaks the fetch rule at every scale and the growth of its SQLite work; the sound plug-in holds both")
    func caught() throws {
        let results = try Self.sweep()
        #expect(results.allSatisfy { $0.valid })
        let rules = try [
            "scan-per-occurrence.fetch_count <= 0.01 * records", "growth(scan-per-occurrence.vm_steps) <= 1.2",
            "one-upsert.fetch_count <= 0.01 * records", "growth(one-upsert.vm_steps) <= 1.2",
        ].enumerated().map { try ExpectationRule(parsing: $1, origin: .option(index: $0 + 1)) }
        let verdicts = ExpectationJudge.judge(rules, results)
        let outcomes = verdicts.map { "\($0.rule.text) [\($0.configuration)]: \($0.outcome.rawValue) \($0.measured)" }
        #expect(
            verdicts.filter { $0.rule.left.strategy == ScanPerOccurrenceStrategy.name }.map(\.outcome) == [.broken, .broken, .broken], "\(outcomes)")
        #expect(verdicts.filter { $0.rule.left.strategy == OneUpsertStrategy.name }.map(\.outcome) == [.held, .held, .held], "\(outcomes)")
        let growth = try #require(verdicts.first { $0.rule.isGrowth && $0.rule.left.strategy == ScanPerOccurrenceStrategy.name })
        #expect(growth.measured > 1.5, "a scan per occurrence does work that grows with the square of the payload")
    }
}
