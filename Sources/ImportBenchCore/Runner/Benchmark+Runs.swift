import ImportBenchStore
import ImportBenchStrategies

extension Benchmark {
    /// Unmeasured rounds of every strategy first, each in a scratch store, so caches, the
    /// allocator and the file system are warm.
    func warmUp(_ strategies: [ImportMethod], _ payload: BenchmarkPayload, preloadPath: String?) throws {
        for _ in 0..<max(0, configuration.warmup) {
            for strategy in strategies {
                let databasePath = payload.file("warmup-\(strategy.name).sqlite")
                try Self.stopIfInterrupted()
                // A warm-up store is scratch: nothing to resume.
                let run = makeRun(of: strategy, payload, preloadPath: preloadPath, databasePath: databasePath, checkpoint: false)
                _ = try execute(run, { _ in })
                DatabaseFile.remove(databasePath)
            }
        }
    }

    /// The measured runs: every strategy in every repetition, interleaved (A B C A B C) so drift
    /// hits all strategies alike. Each result is reported as it finishes, with its repetition's C
    /// reference time once that repetition's reference has run.
    func measureAll(
        _ strategies: [ImportMethod], _ payload: BenchmarkPayload, _ expectation: BenchmarkExpectation, payloadBytes: Int64,
        _ observe: (BenchmarkEvent) -> Void
    ) throws -> [RunResult] {
        let total = strategies.count * configuration.repetitions
        var results: [RunResult] = []
        // Rows per INSERT for the C reference: swept in the first repetition, the fastest kept.
        var rowsPerInsert: Int?
        for repetition in 1...max(1, configuration.repetitions) {
            // The C reference's replays of the rows this repetition's reference wrote.
            var cReference: CReference.Replay?
            for strategy in strategies {
                try Self.stopIfInterrupted()
                observe(.runStarted(strategy: strategy.name, repetition: repetition, index: results.count + 1, total: total))
                let measured = try measure(
                    strategy, repetition: repetition, payload, expectation, payloadBytes: payloadBytes, rowsPerInsert: rowsPerInsert, observe)
                cReference = measured.replay ?? cReference
                rowsPerInsert = cReference?.rowsPerInsert ?? rowsPerInsert
                results.append(measured.result)
                for index in results.indices where results[index].repetition == repetition {
                    results[index].setCReference(cReference)
                }
                observe(.runFinished(results[results.count - 1], soFar: results))
            }
        }
        return results
    }

    /// One measured run of `strategy`, judged against what its store must hold, its store removed
    /// unless kept; a valid reference run's rows are then replayed by the C reference.
    private func measure(
        _ strategy: ImportMethod, repetition: Int, _ payload: BenchmarkPayload, _ expectation: BenchmarkExpectation,
        payloadBytes: Int64, rowsPerInsert: Int?, _ observe: (BenchmarkEvent) -> Void
    ) throws -> (result: RunResult, replay: CReference.Replay?) {
        let databasePath = self.databasePath(for: strategy.name, in: payload.workDirectory)
        let run = makeRun(
            of: strategy, payload, preloadPath: expectation.preloadPath, databasePath: databasePath,
            checkpoint: configuration.spec.options.checkpoint)
        let target = expectation.target(for: strategy)
        var measurement = try withoutActuallyEscaping(observe) { observe in
            try execute(run) { occurrences in
                observe(.runProgress(strategy: strategy.name, occurrences: occurrences, expected: expectation.expected.occurrences))
            }
        }
        // A process of its own (a command) reads the payload itself: its records are the payload's.
        if strategy.isOwnProcess { measurement.occurrences = target.occurrences }
        let differences = measurement.digest.differences(from: target.digest)
        var replay: CReference.Replay?
        if strategy.role.isReplayedInC, differences.isEmpty {
            replay = try replayCReference(
                store: databasePath, digest: measurement.digest, repetition: repetition, rowsPerInsert: rowsPerInsert, payload, observe)
        }
        if configuration.databasePath == nil { DatabaseFile.remove(databasePath) }
        let result = result(
            of: strategy, repetition: repetition, measurement, target: target, differences: differences, payload: payload,
            payloadBytes: payloadBytes)
        return (result, replay)
    }

    /// The reference's rows replayed by the C reference, untimed for the run and outside every
    /// measurement: what SQLite alone needs for them, which every time is also set against. With no
    /// `rowsPerInsert` yet, each candidate is tried and the fastest kept; the plain replay of earlier
    /// releases runs beside it, so dated figures can still be read.
    private func replayCReference(
        store: String, digest: ContentDigest, repetition: Int, rowsPerInsert: Int?, _ payload: BenchmarkPayload,
        _ observe: (BenchmarkEvent) -> Void
    ) throws -> CReference.Replay {
        observe(.replayingCReference(repetition: repetition))
        return try RunError.during(.replayingCReference, in: payload.workDirectory.path) {
            func replayed(_ technique: CReference.Technique) throws -> CReference.Measurement {
                try CReference.replay(
                    store: store, digest: digest, schema: payload.scenario.schema, settings: configuration.spec.options.store,
                    scratchPath: payload.file("c-reference.sqlite"), technique: technique, measuring: referenceExecutor)
            }
            var best: CReference.Replay?
            for rows in rowsPerInsert.map({ [$0] }) ?? CReference.rowsPerInsertCandidates {
                let measurement = try replayed(.bulk(rowsPerInsert: rows))
                if measurement.seconds < best?.bulk.seconds ?? .infinity {
                    best = CReference.Replay(bulk: measurement, rowsPerInsert: rows, plain: nil)
                }
            }
            guard var replay = best else { throw RunError.referenceReplayFailed(code: 1, message: "no rows per insert to try") }
            replay.plain = try replayed(.plain)
            return replay
        }
    }

    /// One run's result, in the terms of the CSV: valid when its store holds exactly `target`.
    private func result(
        of strategy: ImportMethod, repetition: Int, _ measurement: ImportMeasurement, target: ExpectedContent, differences: [String],
        payload: BenchmarkPayload, payloadBytes: Int64
    ) -> RunResult {
        let spec = configuration.spec
        var result = RunResult(
            scenario: payload.scenario.name, strategy: strategy.name, scale: spec.payload.scaleLabel,
            seed: spec.payload.generator?.seed ?? 1, batchSize: spec.options.batchSize, repetition: repetition,
            measurement: measurement, uniqueRecords: target.uniqueObjects, outcome: target.outcome,
            preload: strategy.role.loadsPayloadAlone ? nil : spec.preload?.description, digest: measurement.digest.value,
            valid: differences.isEmpty && measurement.digest == target.digest, differences: differences,
            sqliteVersion: StoreConnection.sqliteVersion, benchVersion: BenchVersion.current, settings: spec.options.store,
            payloadBytes: payloadBytes)
        result.role = strategy.role
        result.decodeAhead = spec.options.decodeAhead
        return result
    }
}
