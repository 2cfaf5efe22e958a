/// An `ImportRun` as data, so it can be handed to a child process and rebuilt there: the run's
/// spec, and the method (its name and settings) and store file it leaves out.
package struct ImportRunSpec: Codable, Sendable, Equatable {
    package var run: RunSpec
    /// The method's name, by which the child finds it in its catalogue.
    package var method: String
    /// The method's settings (`ImportMethod.settings`), given back to it when it is found by name.
    package var methodSettings: [String: String]
    package var databasePath: String
    package var payloadIdentity: PayloadIdentity?

    package init(_ run: ImportRun) {
        self.run = run.spec
        method = run.method.name
        methodSettings = run.method.settings
        databasePath = run.databasePath
        payloadIdentity = run.payloadIdentity
    }

    /// The run this spec names, its method found in `catalog`; a scenario or strategy this build
    /// does not know is refused (`RunRefusal.unknownSpec`).
    package func makeRun(catalog: StrategyCatalog = .builtIn) throws -> ImportRun {
        let scenario: any Scenario
        do {
            scenario = try run.scenario.resolve()
        } catch RunError.refused(.unknownScenario) {
            throw RunError.refused(.unknownSpec(self))
        }
        guard let found = catalog.strategy(named: method) else {
            throw RunError.refused(.unknownSpec(self))
        }
        var rebuilt = try ImportRun(
            spec: run, scenario: scenario, method: found.configured(methodSettings), databasePath: databasePath)
        rebuilt.payloadIdentity = payloadIdentity
        return rebuilt
    }
}
