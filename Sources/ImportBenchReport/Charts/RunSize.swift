import ImportBenchCore

/// Where a run stands on a chart's size axis: a generated payload's scale (`2x`), or a recorded
/// payload (`--payload`), which has no scale and is placed by its records.
package struct RunSize: Hashable, Sendable, CustomStringConvertible {
    /// What orders sizes: the scale's factor, or a recorded payload's records.
    package let factor: Double
    package let description: String
    package let isRecorded: Bool

    package init(_ scale: Scale) {
        factor = scale.factor
        description = scale.description
        isRecorded = false
    }

    /// A recorded payload of `records` occurrences.
    package init(recordedWith records: Double) {
        factor = records
        description = "recorded, " + (Int(exactly: records.rounded()).map(SummaryTable.count) ?? String(format: "%.0f", records)) + " records"
        isRecorded = true
    }
}
