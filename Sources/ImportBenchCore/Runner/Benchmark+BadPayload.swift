import ImportBenchPayload
import ImportBenchStore
import ImportBenchStrategies

extension Benchmark {
    /// `body`, a payload's or an import's error in it turned into the report of a bad payload.
    func reportingBadPayload<T>(
        _ payload: BenchmarkPayload, preloadPath: String?, _ observe: (BenchmarkEvent) -> Void, _ body: () throws -> T
    ) throws -> T {
        do {
            return try body()
        } catch let error where error is PayloadError || error is StrategyError || error is ImportError {
            throw RunError.badPayload(try importBadPayload(error, payload, preloadPath: preloadPath, observe))
        }
    }

    /// The payload cannot be imported whole. Each strategy still runs once, so the user sees where it
    /// stops and what it leaves; every store is checked to hold exactly its committed batches.
    private func importBadPayload(
        _ cause: any Error, _ payload: BenchmarkPayload, preloadPath: String?, _ observe: (BenchmarkEvent) -> Void
    ) throws -> BadPayloadReport {
        var outcomes: [BadPayloadReport.StrategyOutcome] = []
        let strategies = configuration.plannedStrategies
        for (index, strategy) in strategies.enumerated() {
            try Self.stopIfInterrupted()
            observe(.runStarted(strategy: strategy.name, repetition: 1, index: index + 1, total: strategies.count))
            outcomes.append(try runOnBadPayload(strategy, payload, preloadPath: preloadPath))
        }
        return BadPayloadReport(
            cause: cause, payloadPath: payload.path, preloadPath: preloadPath, runs: outcomes, storesRemoved: configuration.databasePath == nil)
    }

    /// Where `strategy` stopped on the payload, and whether its store holds exactly the batches it
    /// committed (worked out from the records, independently of the strategy).
    private func runOnBadPayload(
        _ strategy: ImportMethod, _ payload: BenchmarkPayload, preloadPath: String?
    ) throws -> BadPayloadReport.StrategyOutcome {
        let databasePath = self.databasePath(for: strategy.name, in: payload.workDirectory)
        defer { if configuration.databasePath == nil { DatabaseFile.remove(databasePath) } }
        let run = makeRun(
            of: strategy, payload, preloadPath: preloadPath, databasePath: databasePath, checkpoint: configuration.spec.options.checkpoint)
        let failure: ImportStop
        do {
            _ = try execute(run, { _ in })
            return .imported(strategy: strategy.name)
        } catch RunError.stopped(let stop) {
            guard stop.stage != .interrupted else { throw RunError.stopped(stop) }
            failure = stop
        } catch {
            return .failedBeforeImporting(strategy: strategy.name, error: error)
        }
        let scratch = payload.file("committed-\(strategy.name).sqlite")
        let expected = try run.committedDigest(pass: failure.pass, committedOccurrences: failure.committedOccurrences, scratchPath: scratch)
        let digest = try payload.scenario.schema.digest(of: StoreConnection(path: databasePath))
        return .stopped(
            failure, differences: digest.withoutIndexes.differences(from: expected.withoutIndexes),
            indexesToBuild: digest.indexDifferences(from: expected))
    }
}
