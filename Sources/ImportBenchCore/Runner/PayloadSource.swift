/// Where a run's payload comes from: the scenario's generator, or a recorded file (a GTFS directory
/// for transit).
package enum PayloadSource: Codable, Sendable, Hashable {
    case generated(scale: Scale, seed: UInt64)
    case file(String)

    /// The generator's settings; nil for a recorded payload, which no scale or seed shaped.
    package var generator: (scale: Scale, seed: UInt64)? {
        guard case .generated(let scale, let seed) = self else { return nil }
        return (scale, seed)
    }

    /// What a results row says for the scale of a recorded payload.
    package static let recordedScale = "recorded"

    /// The scale as a results row writes it.
    package var scaleLabel: String { generator?.scale.description ?? Self.recordedScale }

    /// The same source at `scale`; a recorded payload has no scale and stays as it is.
    package func scaled(to scale: Scale) -> PayloadSource {
        guard case .generated(_, let seed) = self else { return self }
        return .generated(scale: scale, seed: seed)
    }
}

extension PayloadSource: CustomStringConvertible {
    package var description: String {
        switch self {
        case .generated(let scale, let seed): return "the generator at \(scale), seed \(seed)"
        case .file(let path): return path
        }
    }
}
