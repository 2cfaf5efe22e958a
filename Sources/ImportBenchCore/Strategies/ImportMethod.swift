/// One way to get a payload into a store, as the runner holds it: a strategy of bench's or of a
/// plug-in (a type), or a user's command (a value, `CommandStrategy`). The runner asks its name,
/// role, needs and passes, and has it measure a run; nothing else, and never which kind it is.
package struct ImportMethod: @unchecked Sendable {
    // @unchecked: the measuring closure captures a metatype or a `CommandStrategy`, both immutable.

    /// The name used on the command line and in results.
    package let name: String
    /// One line: what it does, for `--help` and `bench list`.
    package let summary: String
    package let role: StrategyRole
    /// What must exist before it runs.
    package let needs: MethodNeeds
    /// How many times it reads the payload; what a failed run left committed is worked out pass by pass.
    package let passes: Int
    /// Whether it is a process of its own already (a command): the runner then measures it from
    /// where it is, never in a child process of bench, which would have to know it by name.
    package let isOwnProcess: Bool
    private let measureRun: (ImportRun, ((Int) -> Void)?) throws -> ImportMeasurement

    /// A strategy or method type of bench's or a plug-in's.
    package init(_ method: any MeasuredMethod.Type) {
        name = method.name
        summary = method.summary
        role = method.role
        needs = method.needs
        passes = method.passes
        isOwnProcess = false
        measureRun = { run, progress in try method.measure(run, progress: progress) }
    }

    /// A method measured by `measure`, for a user's command (see `CommandStrategy.method`).
    init(name: String, summary: String, role: StrategyRole, isOwnProcess: Bool, measure: @escaping (ImportRun, ((Int) -> Void)?) throws -> ImportMeasurement) {
        self.name = name
        self.summary = summary
        self.role = role
        needs = []
        passes = 1
        self.isOwnProcess = isOwnProcess
        measureRun = measure
    }

    /// Gets `run`'s payload into `run`'s store, measured. `progress` receives the occurrences read so far.
    package func measure(_ run: ImportRun, progress: ((Int) -> Void)?) throws -> ImportMeasurement {
        try measureRun(run, progress)
    }
}
