import Foundation

extension Benchmark {
    /// Every run goes through here, so a run of a method that adopts a seed store (built anywhere
    /// in the benchmark) is pointed at the seed store.
    func execute(_ run: ImportRun, _ progress: @escaping (Int) -> Void) throws -> ImportMeasurement {
        var run = run
        if run.strategy.needs.contains(.seedStore) {
            // Only a payload that cannot be imported gets here without one: none was built from it.
            guard let seedStore else {
                throw RunRequestError.noSeedStore(method: run.strategy.name, why: "it is built from the payload, which cannot be imported")
            }
            run.seedStorePath = seedStore.path
        }
        return try executor(run, progress)
    }

    /// The seed store a planned method adopts: the given one, checked against the payload first so
    /// a mismatch stops the benchmark before any run, or one built now, untimed, in the work
    /// directory from the same payload. Nil when no planned method needs one.
    func prepareSeedStore(payloadPath: String, in workDirectory: URL, _ observe: (BenchmarkEvent) -> Void) throws -> SeedStoreReport? {
        // `checkRequest` has refused a preload with them.
        guard configuration.plannedStrategies.contains(where: { $0.needs.contains(.seedStore) }) else { return nil }
        let recorded = configuration.payloadPath != nil
        let scale = recorded ? nil : configuration.scale
        let seed = recorded ? nil : configuration.seed
        guard let given = configuration.seedStorePath else {
            let path = workDirectory.appendingPathComponent("seed.sqlite").path
            observe(.buildingSeedStore(path: path))
            return try SeedStoreBuilder(
                scenario: configuration.scenario, payloadPath: payloadPath, scale: scale, seed: seed, onError: configuration.options.onError
            ).build(at: path)
        }
        let metadata = try SeedStoreMetadata.read(at: given)
        let differences = metadata.differences(
            scenario: configuration.scenario.name, scale: scale?.description, seed: seed, payloadFingerprint: PayloadFingerprint.of(payloadPath))
        guard differences.isEmpty else {
            let source = configuration.payloadPath.map { "--payload \($0)" } ?? "--scale \(configuration.scale) --seed \(configuration.seed)"
            throw ImportError.seedStore(
                path: given,
                problem: "was built from \(metadata.describedSource), not from this run's payload (\(differences.joined(separator: "; "))). "
                    + "Build a matching one with: bench seed-db --scenario \(configuration.scenario.name) \(source) --out \(given)")
        }
        return SeedStoreReport(path: given, metadata: metadata, bytes: DatabaseFile.size(given), buildTimes: nil)
    }
}
