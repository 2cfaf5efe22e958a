import Foundation

/// A program run to its end through `/usr/bin/env` (found on PATH), its standard output and error
/// read together: what a test needs of a tool it runs.
struct CapturedProcess {
    let status: Int32
    let output: String

    /// `arguments[0]` is the program; `environment` adds to (or replaces in) the test's own.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        status = process.terminationStatus
    }
}
