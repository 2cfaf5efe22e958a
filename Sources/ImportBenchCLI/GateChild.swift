import Foundation
import ImportBenchCore

/// One program the gate starts (git, tar, swift build, a bench run): it runs to its end while the
/// interrupt handler forwards a stopping signal to it, so Ctrl-C or a CI timeout ends it and the
/// gate then removes what it made. Its standard output goes to the gate's standard error, or is
/// captured when asked, so the gate's standard output carries only its report.
struct GateChild {
    let executable: String
    let arguments: [String]
    var environment: [String: String]? = nil
    /// Where its standard error goes instead of the gate's (a bench run's "results:" lines); the
    /// gate shows the end of it when the child fails.
    var errorLog: URL? = nil

    /// What a finished child left: its exit status and, when captured, its standard output.
    struct Ending {
        let status: Int32
        let output: String
    }

    /// The last `count` lines the child wrote to its error log, for a failure's message.
    func errorTail(_ count: Int = 12) -> String {
        guard let errorLog, let text = try? String(contentsOf: errorLog, encoding: .utf8) else { return "" }
        return text.split(separator: "\n").suffix(count).joined(separator: "\n")
    }

    /// Runs the child to its end. `capture` keeps its standard output (trimmed) instead of showing
    /// it; `quiet` throws it away.
    func run(capture: Bool = false, quiet: Bool = false) throws -> Ending {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.standardInput = FileHandle.nullDevice
        var errorHandle: FileHandle?
        if let errorLog {
            // A file that cannot be created makes the next line throw, naming it.
            _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
            errorHandle = try FileHandle(forWritingTo: errorLog)
            process.standardError = errorHandle
        }
        let pipe = Pipe()
        process.standardOutput = capture ? pipe : (quiet ? FileHandle.nullDevice : FileHandle.standardError)
        do {
            try process.run()
        } catch {
            throw CommandFailure.gate(.cannotStart(program: executable, reason: error.localizedDescription))
        }
        InterruptHandler.forward(to: process.processIdentifier)
        defer { InterruptHandler.forward(to: 0) }
        let data = capture ? pipe.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        if ImportInterruption.isRequested { throw CommandFailure.gate(.interrupted) }
        try errorHandle?.close()
        return Ending(
            status: process.terminationStatus, output: String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
