import ImportBenchStrategies

extension MeasuredMethod where Self: ImportStrategy {
    /// Streams the payload through a new instance, batch by batch (`ImportRun.importBatches`).
    package static func measure(_ run: ImportRun, progress: ((Int) -> Void)?) throws -> ImportMeasurement {
        try run.importBatches(with: Self.self, progress: progress)
    }
}

extension ImportMethod {
    /// A plug-in's strategy as the runner measures it: a design an app could ship (role `user`),
    /// needing nothing prepared, streamed through `ImportRun.importBatches` like the built-ins.
    init(plugIn strategy: any ImportStrategy.Type) {
        self.init(name: strategy.name, summary: strategy.summary, role: .user, passes: strategy.passes, isOwnProcess: false) { run, progress in
            try run.importBatches(with: strategy, progress: progress)
        }
    }
}

// The built-in strategies, measured as the runner measures any strategy: streamed batch by batch.
extension BulkStrategy: MeasuredMethod {}
extension CacheStrategy: MeasuredMethod {}
extension CeilingStrategy: MeasuredMethod {}
extension IDCacheStrategy: MeasuredMethod {}
extension NaiveStrategy: MeasuredMethod {}
extension PrewarmStrategy: MeasuredMethod {}
extension ReplaceStrategy: MeasuredMethod {}
extension StagedStrategy: MeasuredMethod {}
extension UpsertStrategy: MeasuredMethod {}
