/// Named matrices of runs. `ci` is small and fast: every scenario and strategy, a refresh among them,
/// so a committed baseline guards every count the harness produces.
public enum BenchmarkPreset: String, CaseIterable, Sendable {
    case ci

    public var summary: String {
        switch self {
        case .ci: return "every scenario and strategy at a small scale, with a quakes refresh; seconds in a debug build"
        }
    }

    public var configurations: [BenchmarkConfiguration] {
        switch self {
        case .ci:
            let small = { (factor: Double) in Scale(factor: factor) ?? .base }
            return [
                BenchmarkConfiguration(scenario: ChatScenario(), scale: small(0.05), strategies: StrategyRegistry.all, options: RunOptions(batchSize: .occurrences(500))),
                BenchmarkConfiguration(
                    scenario: QuakesScenario(), scale: small(0.1), strategies: StrategyRegistry.all,
                    preload: .generated(overlap: 0.9, changed: 0.2)),
                BenchmarkConfiguration(scenario: ProductsScenario(), scale: small(0.1), strategies: StrategyRegistry.all, options: RunOptions(batchSize: .occurrences(250))),
                BenchmarkConfiguration(scenario: TransitScenario(), scale: small(0.05), strategies: StrategyRegistry.all),
            ]
        }
    }
}
