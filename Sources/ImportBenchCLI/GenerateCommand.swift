import ArgumentParser
import Foundation
import ImportBenchCore
import ImportBenchPayload

/// `bench generate`: write the payload a run would use, streaming.
struct GenerateCommand: ParsableCommand, CheckedCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a scenario's payload to a file, streaming: memory does not grow with scale.",
        discussion: """
            The same scenario, scale and seed always give the same bytes; `bench run --payload` on the file \
            gives the same digest as the in-process generator.

            \(ExitStatus.help([.success, .failure, .usage]))
            """
    )

    @OptionGroup var scenarioOptions: ScenarioOptions

    @Option(
        help: ArgumentHelp(
            "Where to write the payload; written beside it as .partial-NAME and renamed into place once complete. A file already there is replaced only with --force.",
            valueName: "path"))
    var out: String

    @Flag(help: "Replace a file already at --out (never the --mapping or --from file).")
    var force = false

    func check() throws {
        try scenarioOptions.check()
    }

    func validate() throws {
        guard scenarioOptions.resolvedScales.count == 1 else { throw ValidationError("generate writes one payload: give one --scale") }
    }

    func run() throws {
        InterruptHandler.install()
        try OutputPath.check(out, for: "--out", kind: .payload, inputs: scenarioOptions.inputs, force: force)
        // Beside the payload, its name's ending kept: a NAME.gz is written compressed.
        let target = URL(fileURLWithPath: out)
        let partial = target.deletingLastPathComponent().appendingPathComponent(".partial-" + target.lastPathComponent).path
        defer { try? FileManager.default.removeItem(atPath: partial) }
        do {
            let scenario = try scenarioOptions.source.resolve()
            try DiskNeed.checkOutput(
                scenario, scale: scenarioOptions.resolvedScale, payloadBytesAtBaseScale: try ScenarioSample(of: scenario).payloadBytesAtBaseScale,
                path: out)
            try scenario.generate(scale: scenarioOptions.resolvedScale.factor, seed: scenarioOptions.seed, to: partial)
        } catch RunError.interrupted {
            throw CommandFailure.interrupted("interrupted; nothing was written at \(out)")
        } catch {
            throw CommandFailure.failed(error, doing: "cannot generate \(out)")
        }
        do {
            try Self.moveIntoPlace(partial, at: out)
        } catch {
            throw CommandFailure.failed(error, doing: "cannot move the payload into place at \(out)")
        }
        let what =
            scenarioOptions.from.map { "\($0) through \(scenarioOptions.source)" }
            ?? "\(scenarioOptions.source), seed \(scenarioOptions.seed),"
        print("wrote \(out): \(what) at \(scenarioOptions.resolvedScale), \(PayloadSize.bytes(at: out)) bytes")
    }

    /// Puts a complete payload where it was asked for: a file by one rename, which replaces an
    /// earlier one at once; a feed directory's files one rename each into a directory already there.
    private static func moveIntoPlace(_ partial: String, at out: String) throws {
        var isDirectory: ObjCBool = false
        let manager = FileManager.default
        if manager.fileExists(atPath: partial, isDirectory: &isDirectory), isDirectory.boolValue,
            manager.fileExists(atPath: out, isDirectory: &isDirectory), isDirectory.boolValue
        {
            for name in try manager.contentsOfDirectory(atPath: partial) {
                try rename(partial + "/" + name, to: out + "/" + name)
            }
            return
        }
        try rename(partial, to: out)
    }

    private static func rename(_ from: String, to: String) throws {
        guard Foundation.rename(from, to) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }
}
