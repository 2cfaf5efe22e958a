import ImportBenchPayload
import ImportBenchStrategies

/// Named matrices of runs. `ci` is small and fast: every scenario and strategy, a refresh among them,
/// so a committed baseline guards every count the harness produces (a plug-in's too, in its executable).
package enum BenchmarkPreset: String, CaseIterable, Sendable {
    case ci

    package var summary: String {
        switch self {
        case .ci: return "every scenario and strategy at a small scale, with a quakes refresh; seconds in a debug build"
        }
    }

    /// The preset's runs of every strategy `--strategy all` runs in `catalog`, counted at the SQLite
    /// level when the catalog holds a plug-in's (whose connection bench's own cannot count).
    package func configurations(catalog: StrategyCatalog = .builtIn) -> [BenchmarkConfiguration] {
        let pluggedIn = catalog.names != StrategyCatalog.builtIn.names
        let options = { (batchSize: BatchSize) in RunOptions(batchSize: batchSize, counting: pluggedIn ? .sqlite : .connection) }
        switch self {
        case .ci:
            let small = { (factor: Double) in Scale(factor: factor) ?? .base }
            let runs = [
                RunSpec(scenario: ChatScenario().source, payload: .generated(scale: small(0.05), seed: 1), options: options(.occurrences(500))),
                RunSpec(
                    scenario: QuakesScenario().source, payload: .generated(scale: small(0.1), seed: 1),
                    preload: .generated(overlap: 0.9, changed: 0.2), options: options(.default)),
                RunSpec(scenario: ProductsScenario().source, payload: .generated(scale: small(0.1), seed: 1), options: options(.occurrences(250))),
                RunSpec(scenario: TransitScenario().source, payload: .generated(scale: small(0.05), seed: 1), options: options(.default)),
            ]
            return runs.map { BenchmarkConfiguration(spec: $0, strategies: catalog.all) }
        }
    }
}
