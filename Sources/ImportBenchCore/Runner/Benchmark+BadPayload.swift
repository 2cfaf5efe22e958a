import ImportBenchStore

extension Benchmark {
    /// `body`, a payload's or an import's error in it turned into the report of a bad payload.
    func reportingBadPayload<T>(
        _ payload: BenchmarkPayload, preloadPath: String?, _ observe: (BenchmarkEvent) -> Void, _ body: () throws -> T
    ) throws -> T {
        do {
            return try body()
        } catch let error where error is PayloadError || error is ImportError {
            throw try importBadPayload(error, payload, preloadPath: preloadPath, observe)
        }
    }

    /// The payload cannot be imported whole. Each strategy still runs once, so the user sees where it
    /// stops and what it leaves; every store is checked to hold exactly its committed batches.
    private func importBadPayload(
        _ cause: any Error, _ payload: BenchmarkPayload, preloadPath: String?, _ observe: (BenchmarkEvent) -> Void
    ) throws -> BadPayloadError {
        var lines: [String] = []
        let strategies = configuration.plannedStrategies
        for (index, strategy) in strategies.enumerated() {
            try Self.stopIfInterrupted()
            observe(.runStarted(strategy: strategy.name, repetition: 1, index: index + 1, total: strategies.count))
            lines.append(try runOnBadPayload(strategy, payload, preloadPath: preloadPath))
        }
        if configuration.databasePath == nil { lines.append("(the stores were temporary and are removed; give --db PATH to keep them)") }
        return BadPayloadError(cause: cause, payloadPath: payload.path, preloadPath: preloadPath, runs: lines)
    }

    /// One line: where `strategy` stopped on the payload, and whether its store holds exactly the
    /// batches it committed (worked out from the records, independently of the strategy).
    private func runOnBadPayload(_ strategy: ImportMethod, _ payload: BenchmarkPayload, preloadPath: String?) throws -> String {
        let databasePath = self.databasePath(for: strategy.name, in: payload.workDirectory)
        defer { if configuration.databasePath == nil { DatabaseFile.remove(databasePath) } }
        let run = makeRun(
            of: strategy, payload, preloadPath: preloadPath, databasePath: databasePath, checkpoint: configuration.spec.options.checkpoint)
        let failure: RunError
        do {
            _ = try execute(run, { _ in })
            return "\(strategy.name): imported without an error, although the payload is unusable"
        } catch let error as RunError {
            if error.stage == .interrupted { throw error }
            failure = error
        } catch {
            return "\(strategy.name): failed before importing: \(error)"
        }
        let scratch = payload.file("committed-\(strategy.name).sqlite")
        let expected = try run.committedDigest(pass: failure.pass, committedOccurrences: failure.committedOccurrences, scratchPath: scratch)
        let store = try Connection(path: databasePath)
        let differences = try payload.scenario.schema.digest(of: store).differences(from: expected)
        let check = differences.isEmpty
            ? "Checked: the store holds exactly its committed batches."
            : "the store does NOT match its committed batches: \(differences.joined(separator: "; "))"
        return "\(failure.summary) \(check)"
    }
}
