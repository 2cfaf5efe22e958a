/// An `ImportRun` as data, so it can be handed to a child process and rebuilt there by name.
public struct ImportRunSpec: Codable, Sendable, Equatable {
    public var scenario: String
    public var payloadPath: String
    public var strategy: String
    public var databasePath: String
    public var preloadPath: String?
    public var seedStorePath: String?
    public var options: RunOptions

    public init(_ run: ImportRun) {
        scenario = run.scenario.name
        payloadPath = run.payloadPath
        strategy = run.strategy.name
        databasePath = run.databasePath
        preloadPath = run.preloadPath
        seedStorePath = run.seedStorePath
        options = run.options
    }

    /// The run this spec names; unknown names are a `RunRequestError.unknownSpec`.
    public func makeRun() throws -> ImportRun {
        guard let scenario = ScenarioRegistry.scenario(named: scenario), let strategy = StrategyRegistry.strategy(named: strategy) else {
            throw RunRequestError.unknownSpec("\(self)")
        }
        var run = ImportRun(
            scenario: scenario, payloadPath: payloadPath, strategy: strategy, databasePath: databasePath,
            preloadPath: preloadPath, options: options)
        run.seedStorePath = seedStorePath
        return run
    }
}
