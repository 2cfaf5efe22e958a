import ImportBenchCore
import ImportBenchStrategies

/// One strategy's place in a group of runs: its median time and fetches over the repetitions, its
/// multiples of the fastest valid strategy and of the ceiling, and whether it may be ranked at all.
/// What a strategy is for comes from its role in the results, never from its name.
package struct StrategyStanding: Sendable, Equatable {
    /// Why a strategy is, or is not, ranked.
    package enum Status: Sendable, Equatable {
        /// Valid in every run, and a design an app could ship (or an alternative to importing).
        case candidate
        /// The yardstick every time is divided by (role `reference`): not an app's design.
        case ceiling
        /// A known mistake (role `pitfall`), run to show what it does to the data.
        case pitfall
        /// Its data differed from the payload's (valid = false) in `failed` of `runs` runs.
        case invalid(failed: Int, runs: Int)
        /// Every run resumed after a stop: the times cover only the batches after the checkpoint.
        case resumed
        /// The results do not say whether the data was right.
        case unverified
    }

    package let strategy: String
    /// The role as the results name it (`user`, `baseline`, `reference`, ...); empty before csv_version 5.
    package let role: String
    package let status: Status
    /// The median wall time of its complete runs; nil when none is complete.
    package let wallSeconds: Double?
    /// The median of fetch_count; nil where nothing counted them.
    package let fetches: Double?
    /// The complete runs the medians are taken over.
    package let repetitions: Int
    /// 1 for the fastest valid strategy; nil for one not ranked.
    package internal(set) var rank: Int?
    package internal(set) var multipleOfFastest: Double?
    package internal(set) var multipleOfCeiling: Double?

    /// `runs` are one strategy's in one group, in results order.
    init(strategy: String, runs: [ResultsRow]) {
        self.strategy = strategy
        role = runs.first?.role ?? ""
        let complete = runs.filter { $0.resumedFrom.isEmpty }
        let walls = complete.compactMap { $0.value("wall_s") }
        let fetchCounts = complete.compactMap { $0.value("fetch_count") }
        wallSeconds = walls.isEmpty ? nil : SummaryTable.median(walls)
        fetches = fetchCounts.isEmpty ? nil : SummaryTable.median(fetchCounts)
        repetitions = complete.count
        status = Self.status(role: role, runs: runs, complete: complete.count)
    }

    private static func status(role: String, runs: [ResultsRow], complete: Int) -> Status {
        let failed = runs.filter { $0.valid == false }.count
        if failed > 0 { return .invalid(failed: failed, runs: runs.count) }
        if complete == 0 { return .resumed }
        if runs.contains(where: { $0.valid == nil }) { return .unverified }
        switch StrategyRole(rawValue: role) {
        case .limit: return .ceiling
        case .pitfall: return .pitfall
        default: return .candidate
        }
    }

    /// Whether it may be the answer: valid, complete, and a design rather than the yardstick or a known mistake.
    package var isRanked: Bool { status == .candidate && wallSeconds != nil }

    /// Whether a run's data differed from the payload's: marked wherever it is shown.
    package var isInvalid: Bool {
        if case .invalid = status { return true }
        return false
    }

    /// The words the table's rank column shows.
    package var verdict: String {
        switch status {
        case .candidate: return rank.map { $0 == 1 ? "1 (fastest)" : String($0) } ?? "not ranked: no time"
        case .ceiling: return "ceiling (yardstick, not ranked)"
        case .pitfall: return "not ranked: a known mistake (role pitfall)"
        case .invalid(let failed, let runs): return "INVALID: data differs from the payload's in \(failed) of \(runs) run\(runs == 1 ? "" : "s")"
        case .resumed: return "not ranked: resumed after a stop, times cover only part of the import"
        case .unverified: return "not ranked: not verified"
        }
    }
}
