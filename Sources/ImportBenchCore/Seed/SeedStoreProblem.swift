import ImportBenchPayload
import ImportBenchStore

/// Why a seed store cannot be built or adopted, with the values a user needs to act (files,
/// sizes, scenarios, the command that builds a matching store); `description` says what to do.
package enum SeedStoreProblem: Equatable, Sendable, Codable, CustomStringConvertible {
    /// What a failed build's user should do next.
    package enum Remedy: Equatable, Sendable, Codable {
        case fixPayload
        case missingReferencePolicy
        /// The destination's directory must exist, be writable and have room.
        case checkDirectory(String)
    }

    /// The build failed for `cause`; nothing was written at `path`.
    case notBuilt(cause: ErrorCause, path: String, remedy: Remedy)
    /// SQLite left a journal or WAL beside the finished file.
    case leftCompanion(file: String)
    /// Switching the finished store to journal mode DELETE was answered with another mode.
    case journalModeRefused(answer: StoreValue)
    case noSuchFile
    case unreadable(cause: ErrorCause)
    /// A SQLite file without bench's metadata table.
    case notBuiltBySeedDB(table: String)
    /// Built from another payload or read otherwise: each difference, and the command that builds a matching one.
    case otherPayload(source: String, differences: [String], command: String)
    /// Pages of `actual` bytes where the runs' stores have `wanted` (`asked`: whether --pragma page_size said so).
    case otherPageSize(actual: Int, wanted: Int, asked: Bool, command: String)
    case noPageSize
    case notAdopted(at: String)
    /// A non-empty rollback journal beside it: a write to it was interrupted.
    case hotJournal(journal: String)
    case failsQuickCheck(problems: [String])
    /// The copy being adopted lacks bench's metadata table.
    case noMetadata(table: String)
    case otherScenario(found: String, wanted: String)
    case walNotCheckpointed(into: String)

    package var description: String {
        switch self {
        case .notBuilt(let cause, let path, let remedy):
            return "not built: \(cause). Nothing was written at \(path); \(Self.text(remedy))"
        case .leftCompanion(let file): return "SQLite left \(file) beside it; it is not self-contained"
        case .journalModeRefused(let answer): return "SQLite refused journal mode DELETE (\(answer))"
        case .noSuchFile: return "no such file; build one with bench seed-db"
        case .unreadable(let cause): return "cannot be read as a SQLite store (\(cause)); build one with bench seed-db"
        case .notBuiltBySeedDB(let table): return "has no \(table) table, so it was not built by bench seed-db; build one with bench seed-db"
        case .otherPayload(let source, let differences, let command):
            return "was built from \(source), not from this run's payload as the run reads it (\(differences.joined(separator: "; "))). "
                + "Build a matching one with: \(command)"
        case .otherPageSize(let actual, let wanted, let asked, let command):
            let runs = asked ? "this run asks --pragma page_size=\(wanted)" : "this run's stores have SQLite's default of \(wanted)"
            return "has pages of \(actual) bytes where \(runs). Build a matching one with: \(command)"
        case .noPageSize: return "did not report its page size"
        case .notAdopted(let path): return "was not adopted at \(path)"
        case .hotJournal(let journal):
            return "has a hot rollback journal (\(journal)): a write to it was interrupted; open it once with sqlite3 to roll that back, "
                + "or rebuild it with bench seed-db"
        case .failsQuickCheck(let problems):
            return "fails PRAGMA quick_check (\(problems.prefix(3).joined(separator: "; "))); rebuild it with bench seed-db"
        case .noMetadata(let table): return "has no \(table) table; build one with bench seed-db"
        case .otherScenario(let found, let wanted):
            return "holds the \(found) scenario, not \(wanted); build one with bench seed-db --scenario \(wanted)"
        case .walNotCheckpointed(let staged): return "its -wal could not be checkpointed into the copy at \(staged)"
        }
    }

    private static func text(_ remedy: Remedy) -> String {
        switch remedy {
        case .fixPayload: return "fix or replace the payload, then run again"
        case .missingReferencePolicy: return "fix the payload, or build with the --missing-reference policy named above"
        case .checkDirectory(let directory):
            return "check that \(directory.isEmpty ? "the current directory" : directory) exists, is writable and has room, then run again"
        }
    }
}
