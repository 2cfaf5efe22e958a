/// Everything that decides what a measured import does, except which method runs and which store
/// file it writes: one value the configuration holds, each `ImportRun` carries and a child process is handed.
package struct RunSpec: Codable, Sendable, Equatable {
    package var scenario: ScenarioSource
    package var payload: PayloadSource
    /// What fills the store before the measured run (untimed, uncounted): the measured run is a refresh.
    package var preload: PreloadSpec?
    /// Batch size, checkpoints, error policy, store settings, reader probe.
    package var options: RunOptions

    package init(
        scenario: ScenarioSource, payload: PayloadSource, preload: PreloadSpec? = nil, options: RunOptions = RunOptions()
    ) {
        self.scenario = scenario
        self.payload = payload
        self.preload = preload
        self.options = options
    }
}
