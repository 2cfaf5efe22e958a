import Foundation

extension Benchmark {
    /// Every run goes through here, so a run of a method that adopts a seed store (built anywhere
    /// in the benchmark) is pointed at the seed store.
    func execute(_ run: ImportRun, _ progress: @escaping (Int) -> Void) throws -> ImportMeasurement {
        var run = run
        if run.strategy.needs.contains(.seedStore) {
            // Only a payload that cannot be imported gets here without one: none was built from it,
            // and a given one was never checked against it.
            guard let seedStore else {
                let why = configuration.spec.seedStorePath == nil
                    ? "it is built from the payload, which cannot be imported"
                    : "the given store is checked against the payload, which cannot be read"
                throw RunRequestError.noSeedStore(method: run.strategy.name, why: why)
            }
            run.spec.seedStorePath = seedStore.path
        }
        // A command is a process of its own, measured from here; a child of bench would not know it.
        if run.strategy.isOwnProcess { return try run.execute(progress: progress) }
        return try executor(run, progress)
    }

    /// The seed store a planned method adopts: the given one, checked against the payload first so
    /// a mismatch stops the benchmark before any run, or one built now, untimed, in the work
    /// directory from the same payload. Nil when no planned method needs one.
    func prepareSeedStore(of scenario: any Scenario, payloadPath: String, in workDirectory: URL, _ observe: (BenchmarkEvent) -> Void) throws -> SeedStoreReport? {
        // `checkRequest` has refused a preload with them.
        guard configuration.plannedStrategies.contains(where: { $0.needs.contains(.seedStore) }) else { return nil }
        let spec = configuration.spec
        let generator = spec.payload.generator
        guard let given = spec.seedStorePath else {
            let path = workDirectory.appendingPathComponent("seed.sqlite").path
            observe(.buildingSeedStore(path: path))
            return try SeedStoreBuilder(
                scenario: scenario, payloadPath: payloadPath, scale: generator?.scale, seed: generator?.seed, reading: spec.options.reading
            ).build(at: path)
        }
        let metadata = try SeedStoreMetadata.read(at: given)
        let reading = scenario.effectiveReading(spec.options.reading)
        // Judged as this scenario reads now: an earlier bench recorded options without effect on it.
        var judged = metadata
        if let recorded = metadata.readingOptions.flatMap(PayloadReading.init(contentOptions:)) {
            judged.readingOptions = scenario.effectiveReading(recorded).contentOptions()
        }
        let differences = judged.differences(
            scenario: scenario.name, scale: generator?.scale.description, seed: generator?.seed,
            payloadFingerprint: PayloadFingerprint.of(payloadPath), readingOptions: reading.contentOptions())
        guard differences.isEmpty else {
            var source: String
            switch spec.payload {
            case .file(let path): source = "--payload \(path)"
            case .generated(let scale, let seed): source = "--scale \(scale) --seed \(seed)"
            }
            let flags = reading.contentOptions(omittingDefaults: true)
            if !flags.isEmpty { source += " " + flags }
            throw ImportError.seedStore(
                path: given,
                problem: "was built from \(metadata.describedSource), not from this run's payload as the run reads it (\(differences.joined(separator: "; "))). "
                    + "Build a matching one with: bench seed-db --scenario \(scenario.name) \(source) --out \(given)")
        }
        return SeedStoreReport(path: given, metadata: metadata, bytes: DatabaseFile.size(given), buildTimes: nil)
    }
}
