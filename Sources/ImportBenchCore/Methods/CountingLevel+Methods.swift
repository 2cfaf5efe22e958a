extension CountingLevel {
    /// Where a run of `methods` counts by default: at the SQLite level as soon as one is not bench's
    /// own (a plug-in's strategy or a user's command, counted by the same trace), so that every
    /// method of the run pays the trace alike; on bench's connection otherwise.
    package static func needed(by methods: [ImportMethod]) -> CountingLevel {
        let ownNames = StrategyCatalog.builtIn.knownNames
        return methods.contains { !ownNames.contains($0.name) } ? .sqlite : .connection
    }
}
