/// Not an import: the app ships (or downloads) a store `bench seed-db` built ahead of time and
/// adopts a copy of it. Measured as the adoption (copy, open, settings, integrity check) instead of
/// streaming the payload, so it appears in the same table, CSV and digest check.
package enum SeedCopyStrategy: MeasuredMethod {
    package static let name = "seed-copy"
    package static let summary = "adopt a store built ahead of time (bench seed-db): copy it, open it, check it; no import"
    package static let role = StrategyRole.alternative
    package static let needs = MethodNeeds.seedStore
    package static let passes = 1

    package static func measure(_ run: ImportRun, progress: ((Int) -> Void)?) throws -> ImportMeasurement {
        try run.adoptSeedStore()
    }
}
