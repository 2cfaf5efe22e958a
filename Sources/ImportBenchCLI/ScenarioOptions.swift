import ArgumentParser
import Foundation
import ImportBenchCore

/// The payload a command works on: which scenario, how big, which seed. Shared by `run`, `generate` and `seed-db`.
struct ScenarioOptions: ParsableArguments {
    @Option(
        name: .customLong("scenario"),
        help: ArgumentHelp(
            "The payload family: \(ScenarioRegistry.names.joined(separator: ", ")) (bench list says what each models). Default: chat.",
            valueName: "name"))
    var givenScenario: ScenarioSource?

    /// The built-in scenario asked for, chat when none was: whether one was given matters to `--preset`.
    var scenario: ScenarioSource { givenScenario ?? .builtIn("chat") }

    @Option(
        help: ArgumentHelp(
            "A mapping file (YAML) that describes your payload's shape, read instead of a built-in --scenario: the top-level elements, and per entity its key, attributes and relationships. Give the payload with --payload. Scenarios/<name>/mapping.yml are the built-in shapes written so.",
            valueName: "file"))
    var mapping: String?

    @Option(
        help: ArgumentHelp(
            "With --mapping: a recorded payload to scale instead of a generator. --scale K writes it K times over, each copy's keys made its own except the mapping's shared entities (a fractional K ends with a prefix); --seed plays no part.",
            valueName: "sample"))
    var from: String?

    @Option(
        name: .customLong("scale"),
        help: ArgumentHelp(
            "Payload size as a multiple of the scenario's base load: 0.5x, 2x, 100x (a bare 2 also works); bench run sweeps a list such as 1x,2x,4x. 1x: chat 50 channels of 200 messages, 500 users; quakes 10,000 features; products 10,000; transit 1,300 stops, 30,000 stop times. Default: 1x.",
            valueName: "k"))
    var givenScale: String?

    /// The scale text asked for, 1x when none was.
    var scale: String { givenScale ?? "1x" }

    @Option(help: ArgumentHelp("Seed of the payload generator; same seed and scale, same bytes.", valueName: "n"))
    var seed: UInt64 = 1

    /// The scenario asked for: the mapping file when one is given, else the built-in `--scenario`.
    var source: ScenarioSource {
        mapping.map { .mapping(given: $0, sample: from) } ?? scenario
    }

    /// The files these options name for the command to read, which no output may replace.
    var inputs: [OutputPath.Input] {
        [mapping.map { OutputPath.Input(path: $0, option: "--mapping") }, from.map { OutputPath.Input(path: $0, option: "--from") }]
            .compactMap { $0 }
    }

    func validate() throws {
        if let from, mapping == nil {
            throw ValidationError("--from \(from) scales a payload through its mapping: give --mapping FILE too")
        }
        for text in scaleTexts where Scale(parsing: text) == nil {
            throw ValidationError("invalid scale '\(text)'; expected a positive multiple such as 0.5x, 2x, 10x or 100x")
        }
    }

    /// Loads the scenario asked for (a mapping file is read and checked): the commands' `check()`.
    func check() throws {
        _ = try source.resolve()
    }

    private var scaleTexts: [String] { scale.split(separator: ",").map(String.init) }

    /// Every scale given (`1x,2x,4x` sweeps them).
    var resolvedScales: [Scale] { scaleTexts.compactMap(Scale.init(parsing:)) }

    var resolvedScale: Scale { resolvedScales.first ?? .base }
}

extension ScenarioSource {
    /// A mapping file and sample as the command line gives them, made absolute, so a child process
    /// in another directory reads the same files.
    static func mapping(given file: String, sample: String?) -> ScenarioSource {
        func absolute(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }
        return .mapping(absolute(file), sample: sample.map(absolute))
    }
}

/// Any name parses; `validate()` refuses an unknown one, naming the known ones.
extension ScenarioSource: ExpressibleByArgument {
    package init?(argument: String) {
        self = .builtIn(argument)
    }
}
