import ImportBenchStrategies

/// Not an import: the app ships (or downloads) a store `bench seed-db` built ahead of time and
/// adopts a copy of it. Measured as the adoption (copy, open, settings, integrity check) instead of
/// streaming the payload, so it appears in the same table, CSV and digest check. The store comes
/// in its settings: given (`method(adopting:)`), or built by `prepare` from the payload, untimed.
package enum SeedCopyMethod: MeasuredMethod {
    package static let name = "seed-copy"
    package static let summary = "adopt a store built ahead of time (bench seed-db): copy it, open it, check it; no import"
    package static let role = StrategyRole.alternative
    package static let refreshRefusal: String? = "adopting a seed store replaces the store"
    package static let passes = 1
    package static let adoptsSeedStore = true

    /// The setting naming a store built ahead of time, which `prepare` checks against the payload.
    static let givenStore = ImportMethod.givenStoreSetting
    /// The setting `prepare` fills in: the store every run adopts, given and checked, or built.
    static let preparedStore = "prepared-store"

    /// seed-copy adopting `path`, a store `bench seed-db` built; nil: one built from the payload.
    package static func method(adopting path: String?) -> ImportMethod {
        let method = ImportMethod(Self.self)
        return path.map(method.adopting) ?? method
    }

    package static func measure(_ run: ImportRun, progress: ((Int) -> Void)?) throws -> ImportMeasurement {
        // Unprepared only when the payload could not be read: the benchmark then runs every method once to show where it stops.
        guard let seed = run.method.settings[preparedStore] else {
            throw ImportError.noSeedStore(method: name, given: run.method.settings[givenStore] != nil)
        }
        return try adopt(seed, in: run)
    }
}
