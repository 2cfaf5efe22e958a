import ArgumentParser
import Foundation
import ImportBenchCore

/// `bench generate`: write the payload a run would use, streaming.
struct GenerateCommand: ParsableCommand {
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

    @Option(help: ArgumentHelp("Where to write the payload.", valueName: "path"))
    var out: String

    func validate() throws {
        guard scenarioOptions.resolvedScales.count == 1 else { throw ValidationError("generate writes one payload: give one --scale") }
    }

    func run() throws {
        InterruptHandler.install()
        try OutputPath.check(out, for: "--out")
        do {
            let scenario = try scenarioOptions.reference.resolve()
            try DiskNeed.checkOutput(
                scenario, scale: scenarioOptions.resolvedScale, payloadBytesAtBaseScale: try ScenarioSample(of: scenario).payloadBytesAtBaseScale,
                path: out)
            try scenario.generate(scale: scenarioOptions.resolvedScale.factor, seed: scenarioOptions.seed, to: out)
        } catch RunError.interrupted {
            throw CommandFailure.interrupted("interrupted; nothing was written at \(out)")
        } catch {
            throw CommandFailure.failed(error, doing: "cannot generate \(out)")
        }
        let what =
            scenarioOptions.from.map { "\($0) through \(scenarioOptions.reference)" }
            ?? "\(scenarioOptions.reference), seed \(scenarioOptions.seed),"
        print("wrote \(out): \(what) at \(scenarioOptions.resolvedScale), \(PayloadSize.bytes(at: out)) bytes")
    }
}
