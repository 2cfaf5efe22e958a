import Foundation
import ImportBenchPayload
import ImportBenchStrategies

extension Benchmark {
    /// The first phase: the spec's scenario resolved and its payload in place, a recorded file
    /// checked or one generated into `workDirectory`.
    func preparePayload(in workDirectory: URL, _ observe: (BenchmarkEvent) -> Void) throws -> BenchmarkPayload {
        let scenario = try givenScenario ?? configuration.spec.scenario.resolve()
        switch configuration.spec.payload {
        case .file(let recorded):
            try PayloadPath.check(recorded)
            return BenchmarkPayload(scenario: scenario, path: recorded, workDirectory: workDirectory)
        case .generated(let scale, let seed):
            let path = scenario.generatedPayloadPath(in: workDirectory, scale: scale, seed: seed)
            observe(.generatingPayload(path: path))
            try RunError.during(.generatingPayload, in: workDirectory.path) {
                try scenario.generate(scale: scale.factor, seed: seed, to: path)
            }
            return BenchmarkPayload(scenario: scenario, path: path, workDirectory: workDirectory)
        }
    }

    /// The preload's file: the given one, or one generated to overlap the measured payload.
    func resolvePreload(of payload: BenchmarkPayload) throws -> String? {
        switch configuration.spec.preload {
        case nil:
            return nil
        case .file(let path):
            return path
        case .generated(let overlap, let changed):
            // `checkRequest` has refused a generated preload over a recorded payload.
            guard let generator = configuration.spec.payload.generator else { throw RunError.refused(.generatedPreloadWithRecordedPayload) }
            let path = payload.file("preload-\(payload.scenario.name)")
            try payload.scenario.generatePreload(
                scale: generator.scale.factor, seed: generator.seed, overlap: overlap, changed: changed, to: path)
            return path
        }
    }

    /// Every planned method prepared once, untimed, for its runs (seed-copy's store built or
    /// checked against the payload); the reference left out when it cannot run.
    func prepareMethods(
        for payload: BenchmarkPayload, _ expectation: BenchmarkExpectation, _ observe: (BenchmarkEvent) -> Void
    ) throws -> [PreparedMethod] {
        let spec = configuration.spec
        let methods = configuration.plannedStrategies.filter { expectation.referenceSkipped == nil || !$0.role.loadsPayloadAlone }
        return try withoutActuallyEscaping(observe) { observe in
            try methods.map { method in
                try method.prepare(
                    for: MethodPreparation(
                        scenario: payload.scenario, payloadPath: payload.path, payload: spec.payload, reading: spec.options.reading,
                        store: spec.options.store, workDirectory: payload.workDirectory,
                        announce: { observe(.preparing(strategy: method.name, task: $0)) }))
            }
        }
    }

    /// Before the first import: no kept store is replaced that bench did not make, and no
    /// unfinished checkpoint is discarded that the user did not ask to discard.
    func checkKeptStores(of strategies: [ImportMethod], _ payload: BenchmarkPayload, preloadPath: String?) throws {
        for strategy in strategies where keptDatabasePath(for: strategy.name) != nil {
            try makeRun(
                of: strategy, payload, preloadPath: preloadPath, databasePath: databasePath(for: strategy.name, in: payload.workDirectory),
                checkpoint: configuration.spec.options.checkpoint
            ).checkStore()
        }
    }
}
