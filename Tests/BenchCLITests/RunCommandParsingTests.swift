import ArgumentParser
import ImportBenchCore
import ImportBenchStrategies
import Testing

@testable import ImportBenchCLI

@Suite("bench run arguments")
struct RunCommandParsingTests {
    private func parseRun(_ arguments: [String]) throws -> RunCommand {
        let command = try BenchCommand.parseAndCheck(["run"] + arguments)
        return try #require(command as? RunCommand)
    }

    private func errorMessage(_ arguments: [String]) -> String {
        do {
            _ = try BenchCommand.parseAndCheck(["run"] + arguments)
            return ""
        } catch {
            return BenchCommand.message(for: error)
        }
    }

    @Test("defaults: chat at 1x, every strategy, batches of 1000, one repetition")
    func defaults() throws {
        let command = try parseRun([])
        #expect(command.scenarioOptions.scenario == .builtIn("chat"))
        #expect(command.scenarioOptions.resolvedScale == Scale.base)
        #expect(command.resolvedStrategies.map { $0.name } == StrategyCatalog.builtIn.names)
        #expect(command.batchSizes == [.occurrences(1000)])
        #expect(command.repetitions == 1)
    }

    @Test(
        "strategies repeated or comma-separated",
        arguments: [
            (["--strategy", "prewarm"], ["prewarm"]),
            (["--strategy", "prewarm,upsert"], ["prewarm", "upsert"]),
            (["--strategy", "naive", "--strategy", "cache"], ["naive", "cache"]),
            (["--strategy", "naive", "cache"], ["naive", "cache"]),
        ])
    func strategyLists(arguments: [String], names: [String]) throws {
        #expect(try parseRun(arguments).resolvedStrategies.map { $0.name } == names)
    }

    @Test("scales", arguments: [("0.5x", 0.5), ("2x", 2.0), ("2", 2.0), ("100X", 100.0)])
    func scales(text: String, factor: Double) throws {
        #expect(try parseRun(["--scale", text]).scenarioOptions.resolvedScale.factor == factor)
    }

    @Test("a bad scale is one line naming what is expected")
    func badScale() {
        let message = errorMessage(["--scale", "abc"])
        #expect(message.contains("invalid scale 'abc'"))
        #expect(message.contains("2x"))
        #expect(!message.contains("\n"))
    }

    @Test("an unknown strategy is one line naming every allowed value")
    func unknownStrategy() {
        let message = errorMessage(["--strategy", "nope"])
        #expect(message.contains("unknown strategy 'nope'"))
        for name in StrategyCatalog.builtIn.names + ["all"] { #expect(message.contains(name)) }
        #expect(!message.contains("\n"))
    }

    @Test(
        "bad batch sizes, repetitions and scenarios are refused",
        arguments: [
            ["--batch-size", "0"], ["--batch-size", "-3"], ["--batch-size", "many"], ["--repetitions", "0"], ["--scenario", "nope"],
            ["--scale", "0"], ["--scale", "-1x"], ["--checkpoint"], ["--resume"], ["--probe-reads", "0"], ["--probe-reads", "5000"],
        ])
    func refused(arguments: [String]) {
        #expect(!errorMessage(arguments).isEmpty)
    }

    @Test("--help explains every option")
    func helpNamesEveryOption() {
        let help = BenchCommand.helpMessage(for: RunCommand.self)
        for option in [
            "--scenario", "--strategy", "--scale", "--batch-size", "--seed", "--repetitions", "--payload", "--db", "--csv", "--prewarm-chunk",
            "--quiet", "--checkpoint", "--resume", "--on-error", "--journal", "--synchronous", "--probe-reads",
        ] {
            #expect(help.contains(option), "help lacks \(option)")
        }
        for name in StrategyCatalog.builtIn.knownNames { #expect(help.contains(name)) }
    }
}

@Suite("bench run matrices")
struct RunCommandMatrixTests {
    @Test("scales and batch sizes given as lists run their cross product")
    func sweep() throws {
        let command = try #require(
            try BenchCommand.parseAndCheck(["run", "--scale", "1x,2x", "--batch-size", "100,all", "--strategy", "prewarm"]) as? RunCommand)
        let configurations = try command.configurations()
        #expect(
            configurations.map { "\($0.spec.payload.generator?.scale.description ?? "-") \($0.spec.options.batchSize)" }
                == ["1x 100", "1x all", "2x 100", "2x all"])
        #expect(configurations.allSatisfy { $0.strategies.map { $0.name } == ["prewarm"] })
        // One spec: the sweep changes nothing but the scale and the batch size.
        let base = try #require(configurations.first).spec
        for configuration in configurations {
            var spec = configuration.spec
            spec.payload = base.payload
            spec.options.batchSize = base.options.batchSize
            #expect(spec == base)
        }
    }

    @Test("the typed options become the run spec; a recorded payload keeps its file through a scale sweep")
    func spec() throws {
        let command = try #require(
            try BenchCommand.parseAndCheck([
                "run", "--scenario", "quakes", "--payload", "day.geojson", "--preload", "week.geojson", "--scale", "1x,2x",
                "--journal", "delete", "--on-error", "skip", "--probe-reads", "60", "--prewarm-chunk", "7",
            ]) as? RunCommand)
        let configurations = try command.configurations()
        let specs = configurations.map(\.spec)
        #expect(specs.count == 2)
        #expect(configurations.allSatisfy { $0.strategies.allSatisfy { $0.settings == [StrategySettings.keysPerFetchName: "7"] } })
        #expect(
            specs.allSatisfy {
                $0
                    == RunSpec(
                        scenario: .builtIn("quakes"), payload: .file("day.geojson"), preload: .file("week.geojson"),
                        options: RunOptions(onError: .skip, store: StoreSettings(journal: .delete), probeReadsHz: 60))
            })
    }

    @Test("the ci preset covers every scenario and strategy, a refresh among them")
    func ciPreset() throws {
        let command = try #require(try BenchCommand.parseAndCheck(["run", "--preset", "ci", "--repetitions", "2"]) as? RunCommand)
        let configurations = try command.configurations()
        #expect(Set(configurations.map { $0.spec.scenario }) == Set(ScenarioRegistry.names.map(ScenarioSource.builtIn)))
        #expect(configurations.allSatisfy { $0.plannedStrategies.count == StrategyCatalog.builtIn.all.count && $0.repetitions == 2 })
        #expect(configurations.contains { $0.spec.preload != nil })
    }

    @Test(
        "an option a preset would ignore is refused, naming it; the options a preset honours are taken",
        arguments: [
            (["--scale", "2x"], ["--scale"]), (["--strategy", "naive"], ["--strategy"]),
            (["--pragma", "temp_store=memory", "--journal", "delete"], ["--pragma", "--journal"]),
            (["--payload", "p.json", "--db", "s.sqlite"], ["--payload", "--db"]),
            (["--max-json-string-bytes", "10"], ["the --max-...-bytes limits"]),
            // Given with the default values, which the preset does not use: refused all the same.
            (["--scenario", "chat", "--scale", "1x", "--batch-size", "1000"], ["--scenario", "--scale", "--batch-size"]),
            (["--repetitions", "3", "--warmup", "1", "--count-at", "sqlite", "--csv", "r.csv", "--quiet", "--no-isolate"], []),
        ])
    func presetIgnores(arguments: [String], named: [String]) throws {
        let arguments = ["run", "--preset", "ci"] + arguments
        guard !named.isEmpty else {
            #expect(throws: Never.self) { _ = try BenchCommand.parseAndCheck(arguments) }
            return
        }
        let error = #expect(throws: (any Error).self) { _ = try BenchCommand.parseAndCheck(arguments) }
        let message = error.map { BenchCommand.message(for: $0) } ?? ""
        #expect(message.contains("--preset ci fixes what its runs import"), "\(message)")
        #expect(message.contains("so \(named.joined(separator: ", ")) would be ignored"), "\(message)")
    }

    @Test(
        "an unknown preset and a bad entry in a list are refused",
        arguments: [
            ["--preset", "nope"], ["--scale", "1x,abc"], ["--batch-size", "100,0"],
        ])
    func refused(arguments: [String]) {
        #expect(throws: (any Error).self) { _ = try BenchCommand.parseAndCheck(["run"] + arguments) }
    }
}
