import ImportBenchStore

/// Why an import could not write what the payload says, named by entity and natural key.
public enum ImportError: Error, Equatable, CustomStringConvertible {
    /// A relationship names an object that is neither stored nor written earlier in the payload.
    case danglingReference(source: String, sourceKey: DatabaseValue, relationship: String, target: String, targetKey: DatabaseValue)
    /// A feature the scenario or strategy does not offer; the text says what to do instead.
    case unsupported(String)

    public var description: String {
        switch self {
        case .danglingReference(let source, let sourceKey, let relationship, let target, let targetKey):
            return "\(source) \(sourceKey): \(relationship) refers to \(target) \(targetKey), "
                + "which is neither in the store nor earlier in the payload"
        case .unsupported(let message):
            return message
        }
    }
}
