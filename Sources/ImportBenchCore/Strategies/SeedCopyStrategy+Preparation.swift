import Foundation

extension SeedCopyStrategy {
    /// The store the runs adopt: the given one, checked against the payload first so a mismatch
    /// stops the benchmark before any run, or one built now, untimed, in the work directory from
    /// the same payload. Its report is what the header says of it.
    package static func prepare(_ method: ImportMethod, for preparation: MethodPreparation) throws -> PreparedMethod {
        let report = try method.settings[givenStore].map { try check($0, against: preparation) } ?? build(from: preparation)
        return PreparedMethod(method: method.configured([preparedStore: report.path]), report: report)
    }

    private static func build(from preparation: MethodPreparation) throws -> SeedStoreReport {
        let path = preparation.workDirectory.appendingPathComponent("seed.sqlite").path
        preparation.announce("building the seed store \(name) adopts (untimed)")
        let generator = preparation.payload.generator
        return try SeedStoreBuilder(
            scenario: preparation.scenario, payloadPath: preparation.payloadPath, scale: generator?.scale, seed: generator?.seed,
            reading: preparation.reading
        ).build(at: path)
    }

    /// Refuses a given store built from another payload, or read otherwise, naming each difference
    /// and the `bench seed-db` command that builds a matching one.
    private static func check(_ given: String, against preparation: MethodPreparation) throws -> SeedStoreReport {
        let scenario = preparation.scenario
        let generator = preparation.payload.generator
        let metadata = try SeedStoreMetadata.read(at: given)
        let reading = scenario.effectiveReading(preparation.reading)
        // Judged as this scenario reads now: an earlier bench recorded options without effect on it.
        var judged = metadata
        if let recorded = metadata.readingOptions.flatMap(PayloadReading.init(contentOptions:)) {
            judged.readingOptions = scenario.effectiveReading(recorded).contentOptions()
        }
        let differences = judged.differences(
            scenario: scenario.name, scale: generator?.scale.description, seed: generator?.seed,
            payloadFingerprint: PayloadFingerprint.of(preparation.payloadPath), readingOptions: reading.contentOptions())
        guard differences.isEmpty else {
            var source: String
            switch preparation.payload {
            case .file(let path): source = "--payload \(path)"
            case .generated(let scale, let seed): source = "--scale \(scale) --seed \(seed)"
            }
            let flags = reading.contentOptions(omittingDefaults: true)
            if !flags.isEmpty { source += " " + flags }
            throw ImportError.seedStore(
                path: given,
                problem:
                    "was built from \(metadata.describedSource), not from this run's payload as the run reads it (\(differences.joined(separator: "; "))). "
                    + "Build a matching one with: bench seed-db --scenario \(scenario.name) \(source) --out \(given)")
        }
        return SeedStoreReport(path: given, metadata: metadata, bytes: DatabaseFile.size(given), buildTimes: nil)
    }
}
