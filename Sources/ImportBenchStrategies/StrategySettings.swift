/// What a run configures in its strategies beyond the run's options, by name (`--prewarm-chunk`
/// sets `prewarm-chunk`): carried with the method, not the run, so the runner stays ignorant of
/// any one strategy's knobs, and a checkpoint can tell two configurations apart.
public struct StrategySettings: Sendable, Equatable {
    /// The setting `--prewarm-chunk` gives.
    package static let keysPerFetchName = "prewarm-chunk"
    /// Keys per fetch when `--prewarm-chunk` is not given.
    package static let defaultKeysPerFetch = 500

    /// Each setting's value as given, by name.
    package let values: [String: String]

    package init(_ values: [String: String] = [:]) {
        self.values = values
    }

    /// Keys per `SELECT ... WHERE key IN (...)` for a strategy that fetches a batch's keys in
    /// chunks (`--prewarm-chunk`, 500 unless given). Cap it at SQLite's variable limit
    /// (`StoreConnection.variableLimit`) before binding that many keys.
    public var keysPerFetch: Int {
        values[Self.keysPerFetchName].flatMap { Int($0) }.map { max(1, $0) } ?? Self.defaultKeysPerFetch
    }

    /// Every setting as `name=value`, sorted by name, or "none": how a checkpoint records them.
    package var text: String {
        values.isEmpty ? "none" : values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
    }
}
