import ImportBenchCore

/// What made a results file, from its first row: the build (configuration and git revision) and the
/// machine. Timings mean something only beside timings of the same build on the same machine;
/// counts do not care. Empty fields come from files older than the columns (csv_version 7).
package struct ResultsProvenance: Sendable {
    /// `debug` or `release`; empty before csv_version 7.
    package let buildConfiguration: String
    /// The commit the build came from (`-dirty` with uncommitted code); empty when unknown.
    package let revision: String
    /// The machine's fingerprint, as (column, value) in a fixed order; empty values are unknown.
    package let machine: [(column: String, value: String)]
    package let csvVersion: Int
    /// Where the counts were taken (`connection` or `sqlite`); `connection` before csv_version 8.
    package let countedAt: String

    /// The columns that say which machine measured a file.
    package static let machineColumns = ["cpu_model", "cpu_signature", "cpu_count", "kernel", "os", "sqlite_version", "swift_version"]
    /// Every column provenance is read from.
    static let columns = ["build_config", "git_revision", "csv_version", "counted_at"] + machineColumns

    init(row: [String: String]) {
        buildConfiguration = row["build_config"] ?? ""
        revision = row["git_revision"] ?? ""
        machine = Self.machineColumns.map { ($0, row[$0] ?? "") }
        csvVersion = row["csv_version"].flatMap(Int.init) ?? 0
        countedAt = row["counted_at"].flatMap { $0.isEmpty ? nil : $0 } ?? "connection"
    }

    /// The machine in one line, for messages.
    package var machineDescription: String {
        machine.filter { !$0.value.isEmpty }.map { "\($0.column) \($0.value)" }.joined(separator: ", ")
    }

    /// The fingerprint columns both files record and on which they differ.
    package func machineDifferences(from other: ResultsProvenance) -> [String] {
        zip(machine, other.machine).compactMap { mine, theirs in
            !mine.value.isEmpty && !theirs.value.isEmpty && mine.value != theirs.value ? "\(mine.column) \(mine.value) / \(theirs.value)" : nil
        }
    }
}
