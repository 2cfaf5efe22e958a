import ImportBenchCore
import ImportBenchStrategies

/// One row of a results CSV, for charting: what identifies the run and its settings, and every
/// number the row holds by column name, so a metric declared in `ResultColumns` reaches the
/// charts without a field here. Columns a CSV predates (or leaves empty, as the probe's for an
/// unprobed run) are absent, so every chart can skip what it lacks.
package struct ResultsRow: Sendable, Equatable {
    package var scenario: String
    package var strategy: String
    /// The strategy's role as the CSV names it (`reference` for the ceiling); empty before csv_version 5.
    package var role: String
    /// The scale of a generated payload, or a recorded one's records.
    package var scale: RunSize
    package var preload: String
    package var batchSize: String
    package var repetition: Int?
    package var journalMode: String
    package var synchronous: String
    package var probeHz: String
    /// The `--pragma` settings as the CSV's `pragmas` column keeps them (`temp_store=memory;cache_size=-65536`);
    /// empty without them or before csv_version 9.
    package var pragmas: String
    /// `on` where each next batch was decoded on a thread of its own (`--decode-ahead`), else `off`
    /// (also for a CSV older than the column, csv_version 10).
    package var decodeAhead: String
    /// "pass/batch" where a checkpointed import resumed: its counts and times cover only the rest.
    package var resumedFrom: String
    package var valid: Bool?
    /// The row's numeric columns by name.
    package var values: [String: Double]

    package init(
        scenario: String, strategy: String, role: String = "", scale: RunSize, preload: String = "", batchSize: String,
        repetition: Int? = nil, journalMode: String = "", synchronous: String = "", probeHz: String = "", pragmas: String = "",
        decodeAhead: String = "off", resumedFrom: String = "",
        valid: Bool? = nil, values: [String: Double] = [:]
    ) {
        self.scenario = scenario
        self.strategy = strategy
        self.role = role
        self.scale = scale
        self.preload = preload
        self.batchSize = batchSize
        self.repetition = repetition
        self.journalMode = journalMode
        self.synchronous = synchronous
        self.probeHz = probeHz
        self.pragmas = pragmas
        self.decodeAhead = decodeAhead
        self.resumedFrom = resumedFrom
        self.valid = valid
        self.values = values
    }

    /// The value of the column named `name`, if the row has one.
    package func value(_ name: String) -> Double? { values[name] }

    /// Whether the run is the ceiling's, the yardstick every time is divided by: known by its role
    /// in the results (`reference`), never by its name.
    package var isCeiling: Bool { StrategyRole(rawValue: role) == .limit }

    /// The payload's occurrences, which place a run on the size axis.
    package var records: Double? { values["records"] }
}
