import ImportBenchPayload
import ImportBenchStore
import ImportBenchStrategies

/// The error behind a stopped import or an unbuilt seed store, as a value that crosses processes:
/// a layer's own error kept whole (a `PayloadError` with its file, offset and path; a `StoreError`
/// with its SQL), anything else as it describes itself.
package indirect enum ErrorCause: Codable, Sendable, Equatable, CustomStringConvertible {
    case payload(PayloadError)
    case store(StoreError)
    case strategy(StrategyError)
    case method(ImportError)
    case mapping(MappingError)
    case interrupted
    /// An error of no layer of bench's (a plug-in's own type), as it describes itself.
    case other(String)

    package init(_ error: any Error) {
        switch error {
        case let error as PayloadError: self = .payload(error)
        case let error as StoreError: self = .store(error)
        case let error as StrategyError: self = .strategy(error)
        case let error as ImportError: self = .method(error)
        case let error as MappingError: self = .mapping(error)
        case let error as RunError where error.isInterruption: self = .interrupted
        default: self = .other(String(describing: error))
        }
    }

    package var description: String {
        switch self {
        case .payload(let error): return String(describing: error)
        case .store(let error): return String(describing: error)
        case .strategy(let error): return String(describing: error)
        case .method(let error): return String(describing: error)
        case .mapping(let error): return String(describing: error)
        case .interrupted: return String(describing: RunError.interrupted)
        case .other(let text): return text
        }
    }
}
