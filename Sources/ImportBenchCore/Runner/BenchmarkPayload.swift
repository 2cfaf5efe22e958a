import Foundation

/// The payload one `Benchmark.run()` imports, in place, and the directory its scratch files go
/// to: what every phase after the first works from.
struct BenchmarkPayload {
    /// The spec's scenario, resolved once.
    let scenario: any Scenario
    /// The payload's file: the recorded one, or one generated into `workDirectory`.
    let path: String
    /// The run's temporary directory, removed when `run()` returns.
    let workDirectory: URL

    /// A scratch file of the run, by name.
    func file(_ name: String) -> String { workDirectory.appendingPathComponent(name).path }
}
