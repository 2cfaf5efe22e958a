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
            let runs = [
                RunSpec(scenario: ChatScenario().reference, payload: .generated(scale: small(0.05), seed: 1), options: RunOptions(batchSize: .occurrences(500))),
                RunSpec(
                    scenario: QuakesScenario().reference, payload: .generated(scale: small(0.1), seed: 1),
                    preload: .generated(overlap: 0.9, changed: 0.2)),
                RunSpec(scenario: ProductsScenario().reference, payload: .generated(scale: small(0.1), seed: 1), options: RunOptions(batchSize: .occurrences(250))),
                RunSpec(scenario: TransitScenario().reference, payload: .generated(scale: small(0.05), seed: 1)),
            ]
            return runs.map { BenchmarkConfiguration(spec: $0, strategies: StrategyCatalog.builtIn.all) }
        }
    }
}
