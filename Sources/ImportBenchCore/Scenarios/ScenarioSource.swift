/// A scenario named as data, so a run can be written down, handed to a child process and rebuilt.
package enum ScenarioSource: Codable, Sendable, Hashable {
    /// One of `ScenarioRegistry`'s, by its command-line name.
    case builtIn(String)
    /// A mapping file, by its path, with the recorded sample that `--from` scales, if any.
    case mapping(String, sample: String?)

    /// The scenario this names. Throws because a scenario kept in a file will have to be read.
    package func resolve() throws -> any Scenario {
        switch self {
        case .builtIn(let name):
            guard let scenario = ScenarioRegistry.scenario(named: name) else {
                throw RunError.refused(.unknownScenario(name: name, known: ScenarioRegistry.names))
            }
            return scenario
        case .mapping(let path, let sample):
            return try MappedScenario.load(path: path, sample: sample)
        }
    }

    /// Whether the scenario can generate payloads: a built-in one always, a mapping only from its
    /// recorded sample (`--from`).
    package var generates: Bool {
        switch self {
        case .builtIn: return true
        case .mapping(_, let sample): return sample != nil
        }
    }
}

/// As the command line names it (`chat`), for messages that suggest a command.
extension ScenarioSource: CustomStringConvertible {
    package var description: String {
        switch self {
        case .builtIn(let name): return name
        case .mapping(let path, _): return "mapping \(path)"
        }
    }
}
