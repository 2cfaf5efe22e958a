import ImportBenchPayload

/// A payload no strategy can import whole (thrown as `RunError.badPayload`): the reason, and what
/// each strategy did with it.
package struct BadPayloadReport: CustomStringConvertible {
    /// What one strategy did when it was run once on the payload.
    package enum StrategyOutcome: Sendable {
        /// It imported without an error, although the payload is unusable.
        case imported(strategy: String)
        /// It stopped before importing anything (a method with nothing prepared, a refused store).
        case failedBeforeImporting(strategy: String, error: any Error)
        /// It stopped where `stop` says; `differences` between its store and the batches it
        /// committed, worked out from the records (none: the store was checked to hold exactly those);
        /// `indexesToBuild`, the schema's indexes it had not built yet (bulk builds them after its last batch).
        case stopped(ImportStop, differences: [String], indexesToBuild: Int = 0)
    }

    package let cause: any Error
    /// Named before a cause that does not name it (a missing reference, found by key, not by position).
    package let payloadPath: String
    /// Named too, when there is one: a missing reference may be in it, checked with the payload.
    package let preloadPath: String?
    /// One per strategy, in the order they ran.
    package let runs: [StrategyOutcome]
    /// Whether the stores were the run's temporary ones, removed with it (no `--db`).
    package let storesRemoved: Bool

    package var description: String {
        let files = preloadPath.map { "\(payloadPath) (or its preload \($0))" } ?? payloadPath
        let reason = cause is PayloadError ? "\(cause)" : "\(files): \(cause)"
        var lines = runs.map(\.line)
        if storesRemoved { lines.append("(the stores were temporary and are removed; give --db PATH to keep them)") }
        return reason + "\n  " + lines.joined(separator: "\n  ")
    }
}

extension BadPayloadReport.StrategyOutcome {
    /// One line: where the strategy stopped, what stays committed, and whether its store was checked.
    var line: String {
        switch self {
        case .imported(let strategy):
            return "\(strategy): imported without an error, although the payload is unusable"
        case .failedBeforeImporting(let strategy, let error):
            return "\(strategy): failed before importing: \(error)"
        case .stopped(let stop, let differences, let indexesToBuild):
            let check =
                differences.isEmpty
                ? "Checked: the store holds exactly its committed batches."
                : "the store does NOT match its committed batches: \(differences.joined(separator: "; "))"
            let unbuilt =
                indexesToBuild == 0
                ? "" : " Its \(indexesToBuild) indexes are not built yet: the import builds them after its last batch (--resume completes it)."
            return "\(stop.summary) \(check)\(unbuilt)"
        }
    }
}
