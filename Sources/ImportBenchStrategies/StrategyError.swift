import ImportBenchPayload
import ImportBenchStore

/// The strategies layer's one error: what a strategy (bench's or a plug-in's) cannot write as the
/// payload says, named by entity, key and relationship. Codable, so that it crosses from a
/// measuring child process whole.
package enum StrategyError: Error, Equatable, Sendable, Codable, CustomStringConvertible {
    /// A relationship names an object that is neither stored nor written earlier in the payload.
    case danglingReference(source: String, sourceKey: StoreValue, relationship: String, target: String, targetKey: StoreValue)

    package var description: String {
        switch self {
        case .danglingReference(let source, let sourceKey, let relationship, let target, let targetKey):
            return "\(source) \(sourceKey): \(relationship) refers to \(target) \(targetKey), "
                + "which is neither in the store nor earlier in the payload "
                + "(--missing-reference null drops such references; placeholder writes a row holding only the key first)"
        }
    }
}
