import ImportBenchStore

/// Why an import could not write what the payload says, named by entity and natural key.
public enum ImportError: Error, Equatable, CustomStringConvertible {
    /// A relationship names an object that is neither stored nor written earlier in the payload.
    case danglingReference(source: String, sourceKey: DatabaseValue, relationship: String, target: String, targetKey: DatabaseValue)
    /// A seed store that cannot be built or adopted: `problem` says what went wrong and what to do.
    case seedStore(path: String, problem: String)
    /// A file operation on a store failed (copy, rename, sync); `reason` is the system's word for why.
    case fileOperation(operation: String, path: String, reason: String)

    public var description: String {
        switch self {
        case .danglingReference(let source, let sourceKey, let relationship, let target, let targetKey):
            return "\(source) \(sourceKey): \(relationship) refers to \(target) \(targetKey), "
                + "which is neither in the store nor earlier in the payload "
                + "(--missing-reference null drops such references; placeholder writes a row holding only the key first)"
        case .seedStore(let path, let problem):
            return "seed store \(path): \(problem)"
        case .fileOperation(let operation, let path, let reason):
            return "cannot \(operation) \(path): \(reason)"
        }
    }
}
