import ArgumentParser
import Foundation
import ImportBenchCore

/// `bench measure-one`: the child side of an isolated run. Reads an `ImportRunSpec` as JSON on
/// standard input, runs it, writes the `ImportMeasurement` as JSON on standard output. A run that
/// stops early writes a `RunFailureReport` there instead and exits 1 (130 when interrupted).
struct MeasureOneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "measure-one", abstract: "Run one import from a JSON spec on stdin (used by bench run).",
        shouldDisplay: false)

    func run() throws {
        InterruptHandler.installInChild()
        let input = FileHandle.standardInput.readDataToEndOfFile()
        do {
            let spec = try JSONDecoder().decode(ImportRunSpec.self, from: input)
            let measurement = try spec.makeRun().execute()
            FileHandle.standardOutput.write(try JSONEncoder().encode(measurement))
        } catch let error as RunError {
            FileHandle.standardOutput.write(try JSONEncoder().encode(error.report))
            throw error.stage == .interrupted ? CommandFailure.interrupted(error.description) : CommandFailure.failed(error.description)
        } catch {
            throw CommandFailure.failed(String(describing: error))
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

    func execute(_ run: ImportRun, progress: (Int) -> Void) throws -> ImportMeasurement {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["measure-one"]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        InterruptHandler.forward(to: process.processIdentifier)
        defer { InterruptHandler.forward(to: 0) }
        input.fileHandleForWriting.write(try JSONEncoder().encode(ImportRunSpec(run)))
        try input.fileHandleForWriting.close()
        let result = output.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        InterruptHandler.forward(to: 0)
        guard process.terminationStatus == 0 else {
            if let report = try? JSONDecoder().decode(RunFailureReport.self, from: result) { throw report }
            let reason = message.trimmingCharacters(in: .whitespacesAndNewlines)
                .replacingOccurrences(of: "bench: ", with: "")
            throw ImportError.invalidRequest(reason.isEmpty ? "the isolated \(run.strategy.name) run exited with \(process.terminationStatus)" : reason)
        }
        return try JSONDecoder().decode(ImportMeasurement.self, from: result)
    }
}
