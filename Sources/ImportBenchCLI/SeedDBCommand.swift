import ArgumentParser
import Foundation
import ImportBenchCore
import ImportBenchPayload
import ImportBenchReport

/// `bench seed-db`: build the store an app ships or downloads instead of importing.
struct SeedDBCommand: ParsableCommand, CheckedCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed-db",
        abstract: "Build a pre-populated store to ship instead of importing: one file, indexed, vacuumed, analysed.",
        discussion: """
            The fastest import is often none at all: build the store ahead of time, ship or download it, \
            and let the app adopt a copy. bench run --strategy seed-copy --seed-db PATH measures what adopting \
            it costs, beside the imports.

            The tables are created without their indexes and filled with the ceiling's multi-row inserts of \
            the payload's distinct objects in one transaction, with no journal and no syncs; then the indexes \
            are built, the file is vacuumed and analysed, and it is left in journal mode DELETE: one \
            self-contained file, no -wal or -shm. It is written at OUT.partial and renamed to OUT only when \
            complete, so a failed or interrupted build leaves nothing at OUT (an older store there stays as \
            it was). A table importbench_seed records the scenario, scale, seed, payload fingerprint, how the \
            payload was read (--on-error, --missing-reference, --encoding), content digest, bench and SQLite \
            versions and build time, so whoever adopts it can check it matches.

            \(ExitStatus.help([.success, .failure, .usage, .stoppedBySignal]))
            """
    )

    @OptionGroup var scenarioOptions: ScenarioOptions

    @OptionGroup(title: "Payload reading") var readingOptions: PayloadReadingOptions

    @Option(
        help: ArgumentHelp(
            "Build from this recorded payload (a file of the scenario's shape; a GTFS directory for transit) instead of generating one from --scale and --seed.",
            valueName: "path"))
    var payload: String?

    @Option(
        help: ArgumentHelp(
            "A payload record that cannot be read: fail stops the build with its location; skip leaves it out and counts it. The store records the choice, and a run adopts it only when it reads its payload the same way.",
            valueName: "fail|skip"))
    var onError: PayloadErrorPolicy = .fail

    @Option(
        help: ArgumentHelp(
            "Where to write the store; replaced only once the new one is complete (built at PATH.partial, then renamed).",
            valueName: "path"))
    var out: String

    @Option(
        name: .customLong("pragma"),
        help: ArgumentHelp(
            "page_size=BYTES: the store's page size, which a run with --pragma page_size=BYTES needs to adopt it (seed-copy refuses another). The other settings of bench run --pragma are the adopting connection's, not the file's.",
            valueName: "page_size=N"))
    var pragma: String?

    /// The page size `--pragma` asks; nil without one.
    func pageSize() throws -> Int? {
        guard let pragma else { return nil }
        let values: [StorePragma]
        do {
            values = try StorePragma.sweep(parsing: pragma)
        } catch {
            throw CommandFailure.usage(error)
        }
        guard values.count == 1, let setting = values.first, setting.name == .pageSize, let bytes = Int(setting.value) else {
            throw ValidationError(
                "--pragma \(pragma): seed-db takes one page_size=BYTES; the other settings are the adopting run's connection's, given to bench run")
        }
        return bytes
    }

    func check() throws {
        try scenarioOptions.check()
        _ = try pageSize()
    }

    func validate() throws {
        guard scenarioOptions.resolvedScales.count == 1 else { throw ValidationError("seed-db builds one store: give one --scale") }
        guard !out.isEmpty else { throw ValidationError("--out needs a file path") }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: out, isDirectory: &isDirectory), isDirectory.boolValue {
            throw ValidationError("--out \(out) is a directory; give the path of the store file to write")
        }
    }

    func run() throws {
        InterruptHandler.install()
        let directory = (out as NSString).deletingLastPathComponent
        let parent = directory.isEmpty ? "." : directory
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory), isDirectory.boolValue,
            FileManager.default.isWritableFile(atPath: parent)
        else {
            throw CommandFailure.failed(
                "cannot write \(out): \(parent) is not a writable directory; create it or choose another --out. Nothing was written.")
        }
        let scenario = try scenarioOptions.source.resolve()
        let scale = scenarioOptions.resolvedScale
        // A marked run directory: a seed-db killed outright leaves it for the next bench run to remove.
        var generatedIn: RunDirectory?
        defer { generatedIn?.remove() }
        let payloadPath: String
        var generationSeconds: Double?
        if let payload {
            do {
                try PayloadPath.check(payload)
            } catch {
                throw CommandFailure.failed("cannot read --payload: \(error). Nothing was written at \(out).")
            }
            payloadPath = payload
        } else {
            do {
                try DiskNeed.check(
                    scenario, scale: scale, payloadBytesAtBaseScale: try ScenarioSample(of: scenario).payloadBytesAtBaseScale, keptStores: 1,
                    keptPath: out)
                let directory = try RunDirectory.create()
                generatedIn = directory
                payloadPath = scenario.generatedPayloadPath(in: directory.url, scale: scale, seed: scenarioOptions.seed)
                let start = Date()
                try scenario.generate(scale: scale.factor, seed: scenarioOptions.seed, to: payloadPath)
                generationSeconds = Date().timeIntervalSince(start)
            } catch RunError.interrupted {
                throw CommandFailure.interrupted("interrupted; nothing was written at \(out)")
            } catch {
                throw CommandFailure.failed(
                    "cannot generate the \(scenario.name) payload in \(FileManager.default.temporaryDirectory.path): \(error). Nothing was written at \(out)."
                )
            }
        }

        let report: SeedStoreReport
        do {
            var builder = SeedStoreBuilder(
                scenario: scenario, payloadPath: payloadPath, scale: payload == nil ? scale : nil,
                seed: payload == nil ? scenarioOptions.seed : nil, reading: readingOptions.reading(onError: onError))
            builder.pageSize = try pageSize()
            report = try builder.build(at: out)
        } catch RunError.interrupted {
            throw CommandFailure.interrupted("interrupted; nothing was written at \(out)")
        } catch {
            throw CommandFailure.failed(error)
        }
        print(Self.summary(report, generationSeconds: generationSeconds))
    }

    /// What was built and what each phase cost.
    static func summary(_ report: SeedStoreReport, generationSeconds: Double?) -> String {
        let metadata = report.metadata
        var text =
            "wrote \(report.path): \(metadata.describedSource), \(SummaryTable.count(metadata.objects)) objects, "
            + "\(SummaryTable.megabytes(report.bytes)) MB, digest \(metadata.digest)\n"
        if let times = report.buildTimes {
            text +=
                "built in \(seconds(times.total)) s: load \(seconds(times.load)) s, indexes \(seconds(times.indexes)) s, "
                + "vacuum \(seconds(times.vacuum)) s, analyze \(seconds(times.analyze)) s, "
                + "digest, metadata and sync \(seconds(max(0, times.total - times.load - times.indexes - times.vacuum - times.analyze))) s"
        }
        if let generationSeconds { text += " (payload generated first in \(seconds(generationSeconds)) s, not included)" }
        for note in report.readingNotes { text += "\n" + note }
        return text
    }

    static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }

}
