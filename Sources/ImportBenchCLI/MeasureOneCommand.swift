import ArgumentParser
import Foundation
import ImportBenchCore

/// `bench measure-one`: the child side of an isolated run. Reads an `ImportRunSpec` as JSON on
/// standard input, runs it, and tells its parent on standard output, in `ChildMessage` frames:
/// progress as it imports, then the measurement, or the `ImportStop` where it stopped (exit 1, 130
/// when interrupted). With `--c-reference` it reads a `CReference.Job` instead and measures that.
struct MeasureOneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "measure-one", abstract: "Run one import from a JSON spec on stdin (used by bench run).",
        shouldDisplay: false)

    /// At most this often: a progress message costs a write to the pipe inside the measured import.
    static let progressInterval = 0.1

    @Option(help: ArgumentHelp("The PID of the bench that started this child: if it is gone already, the import stops at once.", valueName: "pid"))
    var parent: Int32?

    @Flag(name: .customLong("c-reference"), help: "Read a C reference replay job instead of a run spec, and measure it.")
    var cReference = false

    func run() throws {
        InterruptHandler.installInChild(parent: parent)
        let input = FileHandle.standardInput.readDataToEndOfFile()
        let output = FileHandle.standardOutput
        if cReference {
            let job: CReference.Job
            do {
                job = try JSONDecoder().decode(CReference.Job.self, from: input)
            } catch {
                throw CommandFailure.failed("standard input held not a C reference job this bench reads (\(error)); is the parent the same build?")
            }
            do {
                try output.write(contentsOf: ChildMessageFraming.encode(.cReference(CReference.measure(job))))
            } catch {
                throw CommandFailure.failed(error)
            }
            return
        }
        let spec: ImportRunSpec
        do {
            spec = try JSONDecoder().decode(ImportRunSpec.self, from: input)
        } catch {
            throw CommandFailure.failed("standard input held not a run spec this bench reads (\(error)); is the parent the same build?")
        }
        do {
            var lastProgress = -Double.infinity
            let measurement = try spec.makeRun(catalog: BenchCommand.catalog).execute { occurrences in
                let now = ProcessInfo.processInfo.systemUptime
                guard now - lastProgress >= Self.progressInterval else { return }
                lastProgress = now
                // A parent that has gone away is no reason to stop measuring: its result is lost either way.
                try? output.write(contentsOf: ChildMessageFraming.encode(.progress(occurrences: occurrences)))
            }
            try output.write(contentsOf: ChildMessageFraming.encode(.result(measurement)))
        } catch RunError.stopped(let stop) {
            try output.write(contentsOf: ChildMessageFraming.encode(.failure(stop)))
            throw CommandFailure.failed(RunError.stopped(stop))
        } catch {
            throw CommandFailure.failed(error)
        }
    }
}

/// Runs each measured import in a fresh `bench measure-one` process, so its peak RSS, heap and
/// allocator statistics are its own, untouched by the runs before it.
struct ChildProcessExecutor {
    let executable: URL

    /// This very binary, found through /proc where it can be.
    static func current() -> ChildProcessExecutor {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return ChildProcessExecutor(executable: URL(fileURLWithPath: path))
        }
        return ChildProcessExecutor(executable: URL(fileURLWithPath: CommandLine.arguments[0]))
    }

    /// Runs `run` in a child, handing its progress to `progress` as it comes.
    func execute(_ run: ImportRun, progress: (Int) -> Void) throws -> ImportMeasurement {
        var outcome: Result<ImportMeasurement, any Error>?
        let ending = try exchange(arguments: [], input: JSONEncoder().encode(ImportRunSpec(run))) { message in
            switch message {
            case .progress(let occurrences): progress(occurrences)
            case .result(let measurement): outcome = .success(measurement)
            case .failure(let stop): outcome = .failure(RunError.stopped(stop))
            case .cReference: break
            }
        }
        switch outcome {
        case .failure(let error)?: throw error
        case .success(let measurement)? where ending.status == 0: return measurement
        default:
            // A child the user's Ctrl-C reached while it was starting, before it could take the
            // signal itself, ends without a word: an interruption, with nothing of the run done.
            if ImportInterruption.isRequested { throw RunError.interrupted }
            throw ending.failure(describing: "the isolated \(run.method.name) run")
        }
    }

    /// Measures the C reference's replay in a child, fresh and single-threaded as an import's is.
    func replay(_ job: CReference.Job) throws -> CReference.Measurement {
        var measurement: CReference.Measurement?
        let ending = try exchange(arguments: ["--c-reference"], input: JSONEncoder().encode(job)) { message in
            if case .cReference(let replayed) = message { measurement = replayed }
        }
        guard let measurement, ending.status == 0 else {
            if ImportInterruption.isRequested { throw RunError.interrupted }
            throw ending.failure(describing: "the C reference's replay")
        }
        return measurement
    }

    /// How a child ended: its exit status, its standard error, and what was wrong with its stream.
    private struct Ending {
        var status: Int32
        var diagnostics: String
        var streamProblem: ChildProblem?

        func failure(describing what: String) -> CommandFailure {
            .child(.endedSilently(what: what, status: status, diagnostics: diagnostics, stream: streamProblem))
        }
    }

    /// Starts `bench measure-one`, writes `input` to it, hands each message it sends to `receive`,
    /// and waits for it to end. Its standard error is read on another thread meanwhile, so a child
    /// that writes much there never blocks on a full pipe.
    private func exchange(arguments: [String], input: Data, _ receive: (ChildMessage) -> Void) throws -> Ending {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["measure-one", "--parent", String(getpid())] + arguments
        let inputPipe = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = inputPipe
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        InterruptHandler.forward(to: process.processIdentifier)
        defer { InterruptHandler.forward(to: 0) }
        let diagnostics = DrainedPipe(errors.fileHandleForReading)
        do {
            inputPipe.fileHandleForWriting.write(input)
            try inputPipe.fileHandleForWriting.close()
        } catch {
            // The child is not left running: it could still be writing in the run directory.
            process.terminate()
            process.waitUntilExit()
            throw error
        }

        var streamProblem: ChildProblem?
        do {
            while let message = try ChildMessageFraming.read(from: output.fileHandleForReading) {
                receive(message)
            }
        } catch let failure as CommandFailure {
            guard case .child(let problem) = failure.problem else { throw failure }
            // Read what is left so the child can exit; what went wrong with its stream is said by the caller.
            _ = output.fileHandleForReading.readDataToEndOfFile()
            streamProblem = problem
        }
        process.waitUntilExit()
        return Ending(status: process.terminationStatus, diagnostics: diagnostics.text(), streamProblem: streamProblem)
    }
}

/// Everything a pipe delivers until its end, read on a thread of its own.
private final class DrainedPipe: @unchecked Sendable {
    // @unchecked: `data` is written by the reading thread before `done` is signalled, read after.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    /// Waits for the end of the pipe.
    func text() -> String {
        done.wait()
        done.signal()
        return String(decoding: data, as: UTF8.self)
    }
}
