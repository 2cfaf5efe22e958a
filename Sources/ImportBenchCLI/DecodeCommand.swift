import ArgumentParser
import Foundation
import ImportBenchCore
import ImportBenchPayload

/// `bench decode`: read a payload as an import would, with no store: checks a file before a long
/// run and measures the decoder alone (what `decode_s` covers).
struct DecodeCommand: ParsableCommand, CheckedCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Read a payload through its scenario's reader without importing: check it, count it, time the decoding.",
        discussion: """
            Reads and batches every record exactly as bench run does before writing, so a file that \
            decodes here imports there, and the rate is the one bench run's decode_s gives. With \
            several repetitions the median and the range are printed.

            \(ExitStatus.help([.success, .failure, .usage]))
            """
    )

    @Option(
        help: ArgumentHelp(
            "The payload family: \(ScenarioRegistry.names.joined(separator: ", ")).", valueName: "name"))
    var scenario: ScenarioSource = .builtIn("chat")

    @Option(help: ArgumentHelp("A mapping file (YAML) to read the payload through instead of a built-in --scenario.", valueName: "file"))
    var mapping: String?

    /// The mapping when one is given, else the built-in scenario.
    private var source: ScenarioSource {
        mapping.map { .mapping(given: $0, sample: nil) } ?? scenario
    }

    @Option(help: ArgumentHelp("The payload file (a GTFS directory for transit).", valueName: "path"))
    var payload: String

    @Option(help: ArgumentHelp("Occurrences per batch, or 'all', as bench run batches them.", valueName: "n|all"))
    var batchSize: String = "1000"

    @Option(help: "Times to read the file; the median is reported.")
    var repetitions: Int = 1

    @Option(help: "A record that cannot be read: fail stops with its location; skip counts it and goes on.")
    var onError: PayloadErrorPolicy = .fail

    @OptionGroup(title: "Payload reading") var readingOptions: PayloadReadingOptions

    func check() throws {
        _ = try source.resolve()
    }

    func validate() throws {
        guard BatchSize(parsing: batchSize) != nil else {
            throw ValidationError("invalid batch size '\(batchSize)'; expected a positive number of occurrences or 'all'")
        }
        guard repetitions >= 1 else { throw ValidationError("--repetitions must be at least 1") }
    }

    func run() throws {
        let scenario = try source.resolve()
        guard let batchSize = BatchSize(parsing: batchSize) else { return }
        var measurements: [DecodeMeasurement] = []
        for _ in 0..<repetitions {
            do {
                measurements.append(
                    try DecodeMeasurement.measure(
                        scenario: scenario, path: payload, batchSize: batchSize, reading: readingOptions.reading(onError: onError)))
            } catch {
                throw CommandFailure.failed(error, doing: "cannot decode \(payload)")
            }
        }
        let rates = measurements.map(\.megabytesPerSecond).sorted()
        guard let first = measurements.first else { return }
        let median = rates[rates.count / 2]
        let occurrencesPerSecond = median * 1e6 / Double(max(first.payloadBytes, 1)) * Double(first.occurrences)
        var rate = String(format: "decoding: %.0f MB/s, %.2f million occurrences/s", median, occurrencesPerSecond / 1e6)
        if rates.count > 1 {
            rate += String(format: " (median of %d reads; range %.0f-%.0f MB/s)", rates.count, rates[0], rates[rates.count - 1])
        }
        print("\(payload): \(first.payloadBytes) bytes, \(first.units) units, \(first.occurrences) occurrences in \(first.batches) batches")
        print(rate)
        for (reason, count) in first.skippedRecords.sorted(by: { $0.key < $1.key }) {
            print("skipped: \(count) \(reason)")
        }
    }
}
