/// What `bench run` measures: one way to get a payload's data into a store. Streaming it through
/// batches (`ImportStrategy`) is one kind; adopting a store built ahead of time is another. The
/// runner measures any of them through `measure` and asks `needs` what to prepare, never which
/// type it holds, so a new kind is one conforming type, listed in `StrategyCatalog.builtIn`.
package protocol MeasuredMethod {
    /// The name used on the command line and in results.
    static var name: String { get }
    /// One line: what it does, for `--help` and `bench list`.
    static var summary: String { get }
    static var role: StrategyRole { get }
    /// What must exist before it runs.
    static var needs: MethodNeeds { get }
    /// How many times it reads the payload (an import strategy streams it through `write` once
    /// per pass). What a failed run left committed is worked out pass by pass.
    static var passes: Int { get }
    /// Gets `run`'s payload into `run`'s store, measured. `progress` receives the occurrences read
    /// so far, for a method that reads them.
    static func measure(_ run: ImportRun, progress: ((Int) -> Void)?) throws -> ImportMeasurement
}

/// What a method needs prepared before its runs.
package struct MethodNeeds: OptionSet, Sendable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }

    /// A store built from the payload ahead of time (given with `--seed-db`, or built untimed). Such
    /// a method replaces the store, so it cannot measure a refresh: no `--preload` with it.
    package static let seedStore = MethodNeeds(rawValue: 1)
}

extension MeasuredMethod {
    package static var role: StrategyRole { .user }
    package static var needs: MethodNeeds { [] }
}
