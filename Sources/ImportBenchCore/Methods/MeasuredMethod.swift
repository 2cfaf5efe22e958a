import ImportBenchStrategies

/// What `bench run` measures: one way to get a payload's data into a store. Streaming it through
/// batches (`ImportStrategy`) is one kind; adopting a store built ahead of time is another. The
/// runner prepares and measures any of them through `prepare` and `measure`, never asking which
/// type it holds, so a new kind is one conforming type, listed in `StrategyCatalog.builtIn`.
package protocol MeasuredMethod {
    /// The name used on the command line and in results.
    static var name: String { get }
    /// One line: what it does, for `--help` and `bench list`.
    static var summary: String { get }
    static var role: StrategyRole { get }
    /// Why it cannot measure a refresh, when it cannot (it replaces the store whole): a run with a
    /// preload is then refused before anything starts. Nil for every import.
    static var refreshRefusal: String? { get }
    /// How many times it reads the payload (an import strategy streams it through `write` once
    /// per pass). What a failed run left committed is worked out pass by pass.
    static var passes: Int { get }
    /// Whether it adopts a store built ahead of time (`--seed-db` names one; `ImportMethod.adopting`).
    static var adoptsSeedStore: Bool { get }
    /// Once per benchmark, untimed, after the payload is read and before any run: makes or checks
    /// what `method`'s runs need, and returns the method as they get it (its settings filled in).
    static func prepare(_ method: ImportMethod, for preparation: MethodPreparation) throws -> PreparedMethod
    /// Gets `run`'s payload into `run`'s store, measured. `progress` receives the occurrences read
    /// so far, for a method that reads them.
    static func measure(_ run: ImportRun, progress: ((Int) -> Void)?) throws -> ImportMeasurement
}

extension MeasuredMethod {
    package static var role: StrategyRole { .user }
    package static var refreshRefusal: String? { nil }
    package static var adoptsSeedStore: Bool { false }
    /// Nothing to prepare: every import reads the payload itself.
    package static func prepare(_ method: ImportMethod, for preparation: MethodPreparation) throws -> PreparedMethod {
        PreparedMethod(method: method)
    }
}
