import ArgumentParser
import Foundation
import ImportBenchCore
import ImportBenchExpectations
import ImportBenchPayload
import ImportBenchReport

/// What `bench run` checks before the first import of the first configuration: the payload is a
/// file it can read to the end, the machine can hold the sweep and its kept stores
/// (`BenchmarkConfiguration.checkResources`), the payload has its scenario's shape, and the CSV
/// can be written. A sweep does not stop at its third configuration for any of these.
extension RunCommand {
    func preflight(_ configurations: [BenchmarkConfiguration], csvPath: String) throws {
        if let payload {
            do {
                try PayloadPath.check(payload)
            } catch {
                throw CommandFailure.failed(error)
            }
        }
        do {
            try BenchmarkConfiguration.checkResources(of: configurations)
        } catch let error as RunError where error.refusal != nil {
            throw CommandFailure.failed(error)
        }
        for configuration in configurations {
            if case .file(let path) = configuration.spec.payload {
                try checkShape(of: path, as: configuration.spec.scenario.resolve())
            }
        }
        try OutputPath.check(csvPath, for: "--csv", kind: .resultsCSV, inputs: inputs, force: force)
        if !expectationOptions.rules.isEmpty || expectationOptions.file != nil || growth != nil {
            try OutputPath.check(
                ExpectationReport.path(besideResults: csvPath), for: "--csv (the expectations' verdicts beside it)", kind: .expectationsCSV,
                inputs: inputs, force: force)
        }
    }

    /// Every file this run reads, which its CSV must never replace.
    var inputs: [OutputPath.Input] {
        var inputs = scenarioOptions.inputs
        if let payload { inputs.append(OutputPath.Input(path: payload, option: "--payload")) }
        if case .file(let path) = preload { inputs.append(OutputPath.Input(path: path, option: "--preload")) }
        if let seedDB { inputs.append(OutputPath.Input(path: seedDB, option: "--seed-db")) }
        if let file = expectationOptions.file { inputs.append(OutputPath.Input(path: file, option: "--expectations")) }
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
