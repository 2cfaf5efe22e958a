import ArgumentParser
import Foundation
import ImportBenchCore
import ImportBenchPayload

/// What `bench run` checks before the first import of the first configuration: the payload is a
/// file it can read to the end, every kept store's path holds nothing or a store bench made, and
/// the CSV can be written. A sweep does not stop at its third configuration for any of these.
extension RunCommand {
    func preflight(_ configurations: [BenchmarkConfiguration], csvPath: String) throws {
        if let payload {
            do {
                try PayloadPath.check(payload)
            } catch {
                throw CommandFailure.failed(error)
            }
        }
        // One sample per scenario, whatever the sweep: generated, or for a mapping the payload's first units.
        var samples: [ScenarioSource: ScenarioSample] = [:]
        // A payload's size once per file: a gzip one is inflated to be measured.
        var payloadBytes: [String: Double] = [:]
        func bytes(of path: String) -> Double {
            if let known = payloadBytes[path] { return known }
            let measured = Double(PayloadSize.bytes(at: path))
            payloadBytes[path] = measured
            return measured
        }
        for configuration in configurations {
            let reference = configuration.spec.scenario
            do {
                let scenario = try reference.resolve()
                let kept = configuration.databasePath == nil ? 0 : configuration.plannedStrategies.count
                switch configuration.spec.payload {
                case .generated(let scale, _):
                    let sample = try samples[reference] ?? ScenarioSample(of: scenario)
                    samples[reference] = sample
                    try DiskNeed.check(
                        scenario, scale: scale, payloadBytesAtBaseScale: sample.payloadBytesAtBaseScale, keptStores: kept,
                        keptPath: configuration.databasePath)
                    try MemoryNeed.check(
                        scenario, payloadBytes: sample.payloadBytesAtBaseScale * scale.factor,
                        recordBytesPerPayloadByte: sample.recordBytesPerPayloadByte, describing: "\(scenario.name) at \(scale)")
                case .file(let path):
                    try DiskNeed.check(
                        scenario, scale: .base, payloadBytesAtBaseScale: bytes(of: path), keptStores: kept,
                        keptPath: configuration.databasePath, describing: "the payload \(path)", scalable: false)
                    // A mapping without a sample to scale has no generator: its payload is the sample.
                    let generates = (scenario as? MappedScenario).map { $0.sample != nil } ?? true
                    let sample =
                        try samples[reference]
                        ?? (generates ? ScenarioSample(of: scenario) : ScenarioSample(of: scenario, recorded: path))
                    samples[reference] = sample
                    try MemoryNeed.check(
                        scenario, payloadBytes: bytes(of: path), recordBytesPerPayloadByte: sample.recordBytesPerPayloadByte,
                        describing: "the payload \(path)", scalable: false)
                    try checkShape(of: path, as: scenario)
                }
            } catch let error as RunError where error.refusal != nil {
                throw CommandFailure.failed(error)
            }
        }
        for configuration in configurations {
            let benchmark = Benchmark(configuration: configuration)
            for strategy in configuration.plannedStrategies {
                guard let path = benchmark.keptDatabasePath(for: strategy.name) else { continue }
                if case .other(let what) = DatabaseFile.occupant(of: path) {
                    throw CommandFailure.failed(RunError.refused(.notOurStore(path: path, found: what)))
                }
            }
        }
        try OutputPath.check(csvPath, for: "--csv", kind: .resultsCSV, inputs: inputs, force: force)
    }

    /// Every file this run reads, which its CSV must never replace.
    var inputs: [OutputPath.Input] {
        var inputs = scenarioOptions.inputs
        if let payload { inputs.append(OutputPath.Input(path: payload, option: "--payload")) }
        if case .file(let path) = preload { inputs.append(OutputPath.Input(path: path, option: "--preload")) }
        if let seedDB { inputs.append(OutputPath.Input(path: seedDB, option: "--seed-db")) }
        return inputs
    }

    /// A payload of another shape than its scenario's fails at its root (the collection the reader
    /// looks for is missing, the document is of another kind): said once, before any strategy runs,
    /// with the scenario it was read as and what to give instead. A payload that fails inside its
    /// elements goes on to the runs, which report what each committed.
    func checkShape(of path: String, as scenario: any Scenario) throws {
        do {
            _ = try scenario.openReader(path: path).nextUnit()
        } catch let error as PayloadError where error.isAtDocumentRoot {
            let assumed =
                scenarioOptions.mapping == nil && scenarioOptions.scenario == .builtIn("chat")
                ? "the chat scenario (the default when neither --scenario nor --mapping is given)"
                : scenarioOptions.mapping.map { "the mapping \($0)" } ?? "the \(scenario.name) scenario"
            throw CommandFailure.failed(
                "\(path) does not have the shape of \(assumed): \(error). Give --scenario NAME if it is one of the built-in "
                    + "shapes (bench list), or --mapping FILE to describe your own (docs/mapping.md); nothing was imported.")
        } catch {
            // Inside its elements, or anything else: the runs report it as they go.
        }
    }

    /// Checks of `--db`, `--resume` and `--restart` that need no file.
    func validateStoreOptions() throws {
        if (checkpoint || resume) && db == nil {
            throw ValidationError("--checkpoint and --resume need --db PATH: the store must outlive the run to be resumed")
        }
        if resume && restart {
            throw ValidationError("--resume continues an unfinished import and --restart discards it: give one")
        }
        if let db {
            guard !db.isEmpty else { throw ValidationError("--db needs a path, such as stores/chat.sqlite") }
            var isDirectory: ObjCBool = false
            if db.hasSuffix("/") || (FileManager.default.fileExists(atPath: db, isDirectory: &isDirectory) && isDirectory.boolValue) {
                throw ValidationError("--db \(db) names a directory; give a file path such as \(db.hasSuffix("/") ? db : db + "/")store.sqlite")
            }
        }
    }
}
