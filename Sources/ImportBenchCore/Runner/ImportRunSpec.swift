/// An `ImportRun` as data, so it can be handed to a child process and rebuilt there by name.
public struct ImportRunSpec: Codable, Sendable, Equatable {
    public var scenario: String
    public var payloadPath: String
    public var strategy: String
    public var batchSize: String
    public var databasePath: String
    public var prewarmChunkSize: Int
    public var preloadPath: String?
    public var checkpoint: Bool?
    public var onError: PayloadErrorPolicy?
    public var settings: StoreSettings?
    public var probeReadsHz: Int?
    public var seedStorePath: String?

    public init(_ run: ImportRun) {
        scenario = run.scenario.name
        payloadPath = run.payloadPath
        strategy = run.strategy.name
        batchSize = run.batchSize.description
        databasePath = run.databasePath
        prewarmChunkSize = run.prewarmChunkSize
        preloadPath = run.preloadPath
        checkpoint = run.checkpoint
        onError = run.onError
        settings = run.settings
        probeReadsHz = run.probeReadsHz
        seedStorePath = run.seedStorePath
    }

    /// The run this spec names; unknown names are a `RunRequestError.unknownSpec`.
    public func makeRun() throws -> ImportRun {
        guard let scenario = ScenarioRegistry.scenario(named: scenario),
            let strategy = StrategyRegistry.strategy(named: strategy),
            let batchSize = BatchSize(parsing: batchSize)
        else {
            throw RunRequestError.unknownSpec("\(self)")
        }
        var run = ImportRun(
            scenario: scenario, payloadPath: payloadPath, strategy: strategy, batchSize: batchSize,
            databasePath: databasePath, prewarmChunkSize: prewarmChunkSize, preloadPath: preloadPath,
            checkpoint: checkpoint ?? false, onError: onError ?? .fail, settings: settings ?? .default,
            probeReadsHz: probeReadsHz)
        run.seedStorePath = seedStorePath
        return run
    }
}
