/// Every built-in scenario, by command-line name.
public enum ScenarioRegistry {
    public static var all: [any Scenario] { [ChatScenario(), QuakesScenario(), ProductsScenario(), TransitScenario()] }

    public static var names: [String] { all.map(\.name) }

    public static func scenario(named name: String) -> (any Scenario)? {
        all.first { $0.name == name }
    }
}
