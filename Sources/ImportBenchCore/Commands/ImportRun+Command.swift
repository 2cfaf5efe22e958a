import Foundation
import ImportBenchStore
import ImportBenchStrategies

extension CommandMethod {
    /// The command as the runner holds it: a design an app could ship (role `user`), measured from
    /// bench's process, since it is a process of its own.
    package func method(timeout: Double?, counter: String?) -> ImportMethod {
        let command = self
        return ImportMethod(name: name, summary: "the command \(commandLine)", role: .user, isOwnProcess: true) { run, progress in
            try run.runCommand(command, timeout: timeout, counter: counter, progress: progress)
        }
    }
}

extension ImportRun {
    /// Runs a user's command as this run's import: the store created as for a strategy of bench's
    /// (schema, settings, preload), the command run and measured as a whole process, what it
    /// executed counted by the counter library `counter` (nil: not counted), the store digested.
    func runCommand(_ command: CommandMethod, timeout: Double?, counter: String?, progress: ((Int) -> Void)? = nil) throws -> ImportMeasurement {
        let generation: Int64
        do {
            let (store, _) = try openStore()
            generation = try createStore(store, ledger: ImportLedger(store: store))
        } catch let refusal as RunError where refusal.refusal != nil {
            throw refusal
        } catch {
            throw creationFailure(error)
        }
        // The command's outputs, counts and temporary files in a folder of the run's own, removed
        // after it (and by the next bench, were this one killed), never beside a kept store.
        let folder: RunDirectory
        do {
            folder = try RunDirectory.create()
        } catch {
            throw creationFailure(error)
        }
        defer { folder.remove() }
        let files = (
            output: folder.url.appendingPathComponent("stdout").path, error: folder.url.appendingPathComponent("stderr").path,
            counts: folder.url.appendingPathComponent("counts").path
        )
        // The store as bench made it: what the command did to it is told from this afterwards.
        let snapshot = CommandStoreSnapshot(path: databasePath)
        let ending: CommandEnding
        do {
            ending = try CommandProcess.run(
                command.resolved(payload: payloadPath, database: databasePath), name: command.name,
                environment: commandEnvironment(generation: generation, counts: files.counts, counter: counter, folder: folder.url.path),
                output: files.output, error: files.error, timeout: timeout, store: databasePath, progress: progress)
        } catch {
            throw failure(of: command, error)
        }
        // Stopped by bench's own stopping signal, passed on to the command's group: an interruption, not a failure.
        if stopRequested() { throw failure(of: command, RunError.interrupted, stage: .interrupted) }
        // The end of its standard error, read only for a message that shows it.
        let tail = { CommandProcess.tail(of: files.error) }
        if ending.timedOut {
            throw failure(of: command, ImportError.commandTimedOut(name: command.name, seconds: timeout ?? 0, errorTail: tail()))
        }
        if let signal = ending.signal { throw failure(of: command, ImportError.commandKilled(name: command.name, signal: signal, errorTail: tail())) }
        if let status = ending.status, status != 0 {
            throw failure(of: command, ImportError.commandFailed(name: command.name, status: status, errorTail: tail()))
        }
        // Processes it left running that still held the store: they were writing after the measured time.
        if !ending.heldStore.isEmpty {
            throw failure(of: command, storeProblem(.heldOpen(by: ending.heldStore, leftRunning: ending.leftRunningCount), of: command))
        }
        if let problem = snapshot.problem() { throw failure(of: command, storeProblem(problem, of: command)) }
        var measurement = ImportMeasurement()
        measurement.wallSeconds = ending.wallSeconds
        measurement.cpuUserSeconds = ending.userSeconds
        measurement.cpuSystemSeconds = ending.systemSeconds
        measurement.peakRSSBytes = ending.peakResidentBytes
        measurement.instructionsNote = "not measured for a command"
        measurement.measuredInside = false
        do {
            if counter != nil, let counts = try CounterLibraryCounts.read(files.counts) {
                measurement.countedAt = .preloaded
                measurement.counts = counts.statements
                measurement.rowsWritten = counts.rowsWritten
            } else {
                measurement.countedAt = .notObserved
            }
        } catch {
            throw failure(of: command, error)
        }
        do {
            // What the command left: a store SQLite cannot read fails its run, named, not the benchmark.
            let store = try StoreConnection(path: databasePath, tracing: .never)
            measurement.digest = try scenario.schema.digest(of: store)
        } catch let error as StoreError {
            throw failure(of: command, storeProblem(.unreadable(error, holders: snapshot.holders()), of: command))
        } catch {
            throw failure(of: command, error)
        }
        measurement.databaseBytes = DatabaseFile.size(databasePath)
        return measurement
    }

    /// What the command finds in its environment: bench's own (so PATH and HOME are the user's),
    /// the run's names for the payload and the store, and the counter library preloaded.
    private func commandEnvironment(generation: Int64, counts: String, counter: String?, folder: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["BENCH_PAYLOAD"] = payloadPath
        environment["BENCH_DB"] = databasePath
        environment["BENCH_BATCH_SIZE"] = options.batchSize.description
        environment["BENCH_GENERATION"] = String(generation)
        environment["BENCH_PRELOADED"] = preloadPath == nil ? "0" : "1"
        // What bench's own connection runs first (foreign keys, the run's synchronous, the busy
        // timeout): per connection in SQLite, so a command runs them itself to import alike.
        environment["BENCH_CONNECTION_PRAGMAS"] = connectionSettings.joined(separator: "; ")
        switch spec.scenario {
        case .builtIn(let name): environment["BENCH_SCENARIO"] = name
        case .mapping(let path, _): environment["BENCH_MAPPING"] = path
        }
        environment["TMPDIR"] = folder
        // Never bench's own counting of an outer run passed on: only this command's.
        environment[CounterLibraryCounts.environmentVariable] = nil
        if let counter {
            environment[CounterLibraryCounts.environmentVariable] = counts
            environment["LD_PRELOAD"] = ([counter] + (environment["LD_PRELOAD"].map { [$0] } ?? [])).joined(separator: " ")
        }
        return environment
    }

    private func storeProblem(_ problem: CommandStoreProblem, of command: CommandMethod) -> ImportError {
        .commandStore(name: command.name, path: databasePath, problem: problem)
    }

    /// The command's failure as the runner reports any strategy's: nothing of it is trusted, the store stays as it left it.
    private func failure(of command: CommandMethod, _ error: any Error, stage: ImportStop.Stage = .command) -> RunError {
        .stopped(
            ImportStop(
                strategy: command.name, stage: stage, pass: 0, batch: nil, batchIndex: nil, committedBatches: 0,
                committedOccurrences: 0, databasePath: databasePath, checkpointed: false, cause: error))
    }
}
