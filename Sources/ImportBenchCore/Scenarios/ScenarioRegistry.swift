/// Every built-in scenario, by command-line name.
package enum ScenarioRegistry {
    package static var all: [any Scenario] { [ChatScenario(), QuakesScenario(), ProductsScenario(), TransitScenario()] }

    package static var names: [String] { all.map(\.name) }

    package static func scenario(named name: String) -> (any Scenario)? {
        all.first { $0.name == name }
    }
}
