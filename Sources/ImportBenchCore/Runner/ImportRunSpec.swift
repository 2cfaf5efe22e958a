/// An `ImportRun` as data, so it can be handed to a child process and rebuilt there: the run's
/// spec, and the method (its name and settings) and store file it leaves out.
package struct ImportRunSpec: Codable, Sendable, Equatable {
    package var run: RunSpec
    package var strategy: String
    /// The method's settings (`ImportMethod.settings`), given back to it when it is found by name.
    package var strategySettings: [String: String]
    package var databasePath: String
    package var payloadIdentity: PayloadIdentity?

    package init(_ run: ImportRun) {
        self.run = run.spec
        strategy = run.strategy.name
        strategySettings = run.strategy.settings
        databasePath = run.databasePath
        payloadIdentity = run.payloadIdentity
    }

    /// The run this spec names, its strategy found in `catalog`; a scenario or strategy this build
    /// does not know is refused (`RunRefusal.unknownSpec`).
    package func makeRun(catalog: StrategyCatalog = .builtIn) throws -> ImportRun {
        let scenario: any Scenario
        do {
            scenario = try run.scenario.resolve()
        } catch RunError.refused(.unknownScenario) {
            throw RunError.refused(.unknownSpec(self))
        }
        guard let strategy = catalog.strategy(named: strategy) else {
            throw RunError.refused(.unknownSpec(self))
        }
        var rebuilt = try ImportRun(
            spec: run, scenario: scenario, strategy: strategy.configured(strategySettings), databasePath: databasePath)
        rebuilt.payloadIdentity = payloadIdentity
        return rebuilt
    }
}
