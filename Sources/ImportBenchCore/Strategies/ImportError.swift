import ImportBenchStore

/// Why an import could not write what the payload says, named by entity and natural key.
package enum ImportError: Error, Equatable, CustomStringConvertible {
    /// A relationship names an object that is neither stored nor written earlier in the payload.
    case danglingReference(source: String, sourceKey: DatabaseValue, relationship: String, target: String, targetKey: DatabaseValue)
    /// A seed store that cannot be built or adopted: `problem` says what went wrong and what to do.
    case seedStore(path: String, problem: SeedStoreProblem)
    /// A method that adopts a seed store runs unprepared, because the payload could not be read:
    /// no store was built from it, or the `given` one was never checked against it.
    case noSeedStore(method: String, given: Bool)
    /// A file operation on a store failed (copy, rename, sync); `reason` is the system's word for why.
    case fileOperation(operation: String, path: String, reason: String)
    /// Connections the strategy opened were still traced when it was released: they stayed open, or
    /// their trace was replaced (one per connection is SQLite's rule), so their statements may be
    /// missing from the counts.
    case uncountedConnections(strategy: String, count: Int)
    /// A strategy that commits its own transactions was asked to checkpoint, which records each
    /// batch inside the batch's transaction.
    case checkpointUnsupported(strategy: String)

    package var description: String {
        switch self {
        case .danglingReference(let source, let sourceKey, let relationship, let target, let targetKey):
            return "\(source) \(sourceKey): \(relationship) refers to \(target) \(targetKey), "
                + "which is neither in the store nor earlier in the payload "
                + "(--missing-reference null drops such references; placeholder writes a row holding only the key first)"
        case .seedStore(let path, let problem):
            return "seed store \(path): \(problem)"
        case .noSeedStore(let method, let given):
            let why =
                given
                ? "the given store is checked against the payload, which cannot be read"
                : "it is built from the payload, which cannot be imported"
            return "\(method) has no seed store to adopt: \(why)"
        case .fileOperation(let operation, let path, let reason):
            return "cannot \(operation) \(path): \(reason)"
        case .uncountedConnections(let strategy, let count):
            return "\(count) SQLite connection\(count == 1 ? "" : "s") that \(strategy) opened did not report closing, so its counts "
                + "may be short: close every connection when the strategy is released (deinit), and install no trace of "
                + "your own (sqlite3_trace_v2, GRDB's db.trace), which replaces bench's"
        case .checkpointUnsupported(let strategy):
            return "\(strategy) commits its own transactions, so bench cannot record a checkpoint inside them: run it without --checkpoint"
        }
    }
}
