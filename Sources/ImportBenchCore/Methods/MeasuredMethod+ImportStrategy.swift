import ImportBenchStrategies

extension MeasuredMethod where Self: ImportStrategy {
    /// Streams the payload through a new instance, batch by batch (`ImportRun.importBatches`).
    package static func measure(_ run: ImportRun, progress: ((Int) -> Void)?) throws -> ImportMeasurement {
        try run.importBatches(with: Self.self, progress: progress)
    }
}

/// A plug-in's strategy as the runner measures it: a design an app could ship (role `user`),
/// needing nothing prepared, streamed through `ImportRun.importBatches` like the built-ins.
enum PluginMethod<Strategy: ImportStrategy>: MeasuredMethod {
    static var name: String { Strategy.name }
    static var summary: String { Strategy.summary }
    static var passes: Int { Strategy.passes }

    static func measure(_ run: ImportRun, progress: ((Int) -> Void)?) throws -> ImportMeasurement {
        try run.importBatches(with: Strategy.self, progress: progress)
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
