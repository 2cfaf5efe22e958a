import ImportBenchStrategies

/// One way to get a payload into a store, as the runner holds it: a strategy of bench's or of a
/// plug-in (a type), or a user's command (a value, `CommandMethod`). The runner asks its name,
/// role and passes, has it prepare once and measure a run; nothing else, and never which kind it is.
package struct ImportMethod: @unchecked Sendable {
    // @unchecked: the closures capture a metatype or a `CommandMethod`, both immutable.

    /// The name used on the command line and in results.
    package let name: String
    /// One line: what it does, for `--help` and `bench list`.
    package let summary: String
    package let role: StrategyRole
    /// Why it cannot measure a refresh, when it cannot; nil for every import.
    package let refreshRefusal: String?
    /// How many times it reads the payload; what a failed run left committed is worked out pass by pass.
    package let passes: Int
    /// Whether it is a process of its own already (a command): the runner then measures it from
    /// where it is, never in a child process of bench, which would have to know it by name.
    package let isOwnProcess: Bool
    /// Whether it adopts a store built ahead of time, which `adopting` names.
    package let adoptsSeedStore: Bool
    /// What configures this method beyond the run's options, by name (seed-copy: the store it
    /// adopts): set by whoever configures it or by its `prepare`, and sent with each run to a
    /// child process, which finds the method by name and gives it these back.
    package private(set) var settings: [String: String] = [:]
    private let prepareMethod: (ImportMethod, MethodPreparation) throws -> PreparedMethod
    private let measureRun: (ImportRun, ((Int) -> Void)?) throws -> ImportMeasurement

    /// A strategy or method type of bench's or a plug-in's.
    package init(_ method: any MeasuredMethod.Type) {
        name = method.name
        summary = method.summary
        role = method.role
        refreshRefusal = method.refreshRefusal
        passes = method.passes
        isOwnProcess = false
        adoptsSeedStore = method.adoptsSeedStore
        prepareMethod = { configured, preparation in try method.prepare(configured, for: preparation) }
        measureRun = { run, progress in try method.measure(run, progress: progress) }
    }

    /// A method measured by `measure`: a plug-in's strategy, or a user's command (see `CommandMethod.method`).
    init(
        name: String, summary: String, role: StrategyRole, passes: Int = 1, isOwnProcess: Bool,
        measure: @escaping (ImportRun, ((Int) -> Void)?) throws -> ImportMeasurement
    ) {
        self.name = name
        self.summary = summary
        self.role = role
        refreshRefusal = nil
        self.passes = passes
        self.isOwnProcess = isOwnProcess
        adoptsSeedStore = false
        prepareMethod = { method, _ in PreparedMethod(method: method) }
        measureRun = measure
    }

    /// This method with `settings` added to its own, a new value replacing an old one of the same name.
    package func configured(_ settings: [String: String]) -> ImportMethod {
        var configured = self
        configured.settings.merge(settings) { _, new in new }
        return configured
    }

    /// The setting naming the store built ahead of time a method that adopts one is given.
    package static let givenStoreSetting = "given-store"

    /// This method adopting `path`, a store `bench seed-db` built, which its `prepare` checks.
    package func adopting(_ path: String) -> ImportMethod {
        configured([Self.givenStoreSetting: path])
    }

    /// Makes or checks what its runs need, once per benchmark, untimed (`MeasuredMethod.prepare`).
    package func prepare(for preparation: MethodPreparation) throws -> PreparedMethod {
        try prepareMethod(self, preparation)
    }

    /// Gets `run`'s payload into `run`'s store, measured. `progress` receives the occurrences read so far.
    package func measure(_ run: ImportRun, progress: ((Int) -> Void)?) throws -> ImportMeasurement {
        try measureRun(run, progress)
    }
}
