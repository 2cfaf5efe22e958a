/// Something a scenario cannot do for the request at hand, and what to give instead.
package enum ScenarioError: Error, Equatable, CustomStringConvertible {
    /// The scenario has no generator for a refresh's earlier payload.
    case refreshNotGenerated(scenario: String)
    /// A mapped scenario reads the user's payloads; it has no generator.
    case notGenerated(scenario: String, mapping: String)

    package var description: String {
        switch self {
        case .refreshNotGenerated(let scenario):
            return "the \(scenario) scenario cannot generate a refresh yet; give --preload a payload file"
        case .notGenerated(let scenario, let mapping):
            return "\(scenario) (from \(mapping)) has no generator: give --payload FILE, a payload of its shape, or --from SAMPLE to scale one"
        }
    }
}
