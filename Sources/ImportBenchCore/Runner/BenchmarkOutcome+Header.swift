import ImportBenchPayload

/// What a benchmark's table is headed with, decided here so every front end (the table, Markdown,
/// a plug-in's own `main`) says the same: the payload, what reading it skipped, and what the runs
/// did that their rows cannot show. The reporters add what they compute from the results between.
extension BenchmarkOutcome {
    /// The payload line (scenario, source, size, batch size, store settings, occurrences and
    /// distinct objects), then what reading skipped, with examples, and the readers' notes.
    package func payloadLines(for configuration: BenchmarkConfiguration) -> String {
        let spec = configuration.spec
        let change = expected.outcome
        var text =
            "\(spec.scenario): \(sourceText(spec)), \(sizeText(spec)), batch size \(spec.options.batchSize), \(spec.options.store), "
            + (spec.options.decodeAhead ? "decoding ahead, " : "")
            + "\(Figures.count(expected.occurrences)) occurrences of "
            + "\(Figures.count(change.inserted + change.updated + change.unchanged)) distinct objects\n"
        for (reason, count) in skippedRecords.sorted(by: { $0.key < $1.key }) {
            text += "skipped \(Figures.count(count)) records, in every run: \(reason)\n"
        }
        for error in skippedErrors.prefix(3) { text += "  for example: \(error)\n" }
        for note in readingNotes { text += "\(note)\n" }
        return text
    }

    /// What the runs did beyond their rows: each method's preparation, resumed checkpoints,
    /// fallbacks, the reader probe, and for a refresh what changed and how the ceiling ran.
    package func runNotes(for configuration: BenchmarkConfiguration) -> String {
        let spec = configuration.spec
        var text = preparations.compactMap { $0.report?.headerLine }.joined()
        if results.contains(where: { $0.measurement.resumedFrom != nil }) {
            text += "(resumed) continued a checkpointed import: its counts and times cover only the batches after the checkpoint\n"
        }
        for fallback in Set(results.compactMap(\.measurement.fallback)).sorted() {
            text += "(\(fallback)) the store ruled the strategy's own way out (it held rows), so the row times this way instead\n"
        }
        if let hz = spec.options.probeReadsHz {
            text +=
                "reader probe: a second connection runs the \(spec.scenario) screen query \(hz) times a second; "
                + "latencies include waits for the writer's lock\n"
        }
        if let preload = spec.preload {
            let change = expected.outcome
            text +=
                "refresh over \(preload): \(change.inserted) objects inserted, \(change.updated) updated, "
                + "\(change.unchanged) unchanged; \(expected.uniqueObjects) objects afterwards\n"
            text += referenceSkipped.map { "ceiling skipped: \($0)\n" } ?? "the ceiling loads the payload alone into an empty store\n"
        }
        return text
    }

    /// Where the payload came from: its file, a mapping's sample at a scale, or the generator's scale and seed.
    private func sourceText(_ spec: RunSpec) -> String {
        switch spec.payload {
        case .file(let path): return "payload \(path)"
        case .generated(let scale, let seed):
            if case .mapping(_, let sample?) = spec.scenario { return "\(sample) at \(scale)" }
            return "scale \(scale), seed \(seed)"
        }
    }

    /// The bytes the readers read; for a compressed payload, what it takes on disk too.
    private func sizeText(_ spec: RunSpec) -> String {
        var size = "\(Figures.megabytes(payloadBytes)) MB"
        if case .file(let path) = spec.payload, case let onDisk = PayloadSize.bytesOnDisk(at: path), onDisk < payloadBytes {
            size += " (\(Figures.megabytes(onDisk)) MB gzip)"
        }
        return size
    }
}
