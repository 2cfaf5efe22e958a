import ImportBenchPayload
import ImportBenchStore

/// The measured methods' one error (commands, seed stores, the catalogue of strategies): why a
/// method could not be taken or could not run, named by strategy, command or file. What a
/// strategy meets while writing is its own layer's `StrategyError`. Codable, so that it crosses
/// from a measuring child process whole.
package enum ImportError: Error, Equatable, Sendable, Codable, CustomStringConvertible {
    /// A seed store that cannot be built or adopted: `problem` says what went wrong and what to do.
    case seedStore(path: String, problem: SeedStoreProblem)
    /// A method that adopts a seed store runs unprepared, because the payload could not be read:
    /// no store was built from it, or the `given` one was never checked against it.
    case noSeedStore(method: String, given: Bool)
    /// A file operation on a store failed (copy, rename, sync); `reason` is the system's word for why.
    case fileOperation(operation: String, path: String, reason: String)
    /// Connections the strategy opened were still traced when it was released: they stayed open, or
    /// their trace was replaced (one per connection is SQLite's rule), so their statements may be
    /// missing from the counts.
    case uncountedConnections(strategy: String, count: Int)
    /// A strategy that commits its own transactions was asked to checkpoint, which records each
    /// batch inside the batch's transaction.
    case checkpointUnsupported(strategy: String)
    /// A plug-in's or a command's name the command line and the CSV cannot take: lower-case
    /// letters, digits and `-`, starting with a letter, and not `all`.
    case invalidName(String, origin: StrategyOrigin)
    /// A built-in strategy, an earlier plug-in or an earlier command already has the name.
    case nameTaken(String, origin: StrategyOrigin)
    /// `--command` text that is not `NAME=COMMAND`.
    case malformedCommand(String)
    /// The library that counts a command's statements could not be built (no C compiler, no sources).
    case counterMissing(path: String, reason: String)
    /// The shell that runs a command could not be started (an errno).
    case commandCannotStart(name: String, errno: Int32)
    /// The thread that decodes ahead (`--decode-ahead on`) could not be started (pthread_create's error).
    case decodingThreadCannotStart(errno: Int32)
    /// A command exited non-zero; `errorTail` is the end of its standard error.
    case commandFailed(name: String, status: Int32, errorTail: String)
    /// A signal ended a command.
    case commandKilled(name: String, signal: Int32, errorTail: String)
    /// `--command-timeout` ended a command.
    case commandTimedOut(name: String, seconds: Double, errorTail: String)
    /// What a command did to the store bench created for it, found after it ended: the store at
    /// `path` deleted, replaced, corrupted, left locked or with companions not its own, or held
    /// open by processes the command left running.
    case commandStore(name: String, path: String, problem: CommandStoreProblem)

    /// Where a strategy that is not bench's own comes from.
    package enum StrategyOrigin: Equatable, Sendable, Codable {
        /// A Swift type given to `main(strategies:)`.
        case plugIn
        /// `--command NAME=COMMAND`.
        case command
    }

    package var description: String {
        switch self {
        case .seedStore(let path, let problem):
            return "seed store \(path): \(problem)"
        case .noSeedStore(let method, let given):
            let why =
                given
                ? "the given store is checked against the payload, which cannot be read"
                : "it is built from the payload, which cannot be imported"
            return "\(method) has no seed store to adopt: \(why)"
        case .fileOperation(let operation, let path, let reason):
            return "cannot \(operation) \(path): \(reason)"
        case .uncountedConnections(let strategy, let count):
            return "\(count) SQLite connection\(count == 1 ? "" : "s") that \(strategy) opened did not report closing, so its counts "
                + "may be short: close every connection when the strategy is released (deinit), and install no trace of "
                + "your own (sqlite3_trace_v2, GRDB's db.trace), which replaces bench's"
        case .checkpointUnsupported(let strategy):
            return "\(strategy) commits its own transactions, so bench cannot record a checkpoint inside them: run it without --checkpoint"
        case .invalidName(let name, .plugIn):
            return "strategy name '\(name)' is not one the command line takes: use lower-case letters, digits and '-', "
                + "starting with a letter (and not 'all')"
        case .invalidName(let name, .command):
            return "--command name '\(name)': use lower-case letters, digits and '-', starting with a letter"
        case .nameTaken(let name, .plugIn):
            return "two strategies are named '\(name)': give the plug-in another name (bench's own are "
                + "\(StrategyCatalog.builtIn.knownNames.joined(separator: ", ")))"
        case .nameTaken(let name, .command):
            return "--command name '\(name)' is taken by a strategy or another command: choose another"
        case .malformedCommand(let text):
            return "--command '\(text)': expected NAME=COMMAND, as in py-naive='python3 importer.py {payload} {db}'"
        case .counterMissing(let path, let reason):
            return "cannot build the library that counts a command's statements (\(path)): \(reason)"
        case .commandCannotStart(let name, let errno):
            return "\(name): cannot start /bin/sh (errno \(errno))"
        case .decodingThreadCannotStart(let errno):
            return "cannot start the thread that decodes ahead (errno \(errno)); run with --decode-ahead off"
        case .commandFailed(let name, let status, let tail):
            return "\(name) exited with status \(status)" + Self.commandTail(tail)
        case .commandKilled(let name, let signal, let tail):
            return "\(name) was ended by signal \(signal)" + Self.commandTail(tail)
        case .commandTimedOut(let name, let seconds, let tail):
            let shown = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
            return "\(name) ran longer than --command-timeout \(shown) s and was stopped" + Self.commandTail(tail)
        case .commandStore(let name, let path, let problem):
            return problem.message(command: name, path: path)
        }
    }

    private static func commandTail(_ text: String) -> String {
        text.isEmpty ? " (it wrote nothing on standard error)" : "; the end of its standard error:\n\(text)"
    }
}
