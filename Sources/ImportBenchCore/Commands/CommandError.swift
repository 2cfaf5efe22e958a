/// Why a command given as a strategy (`--command NAME=COMMAND`) could not be taken or did not
/// finish: each case carries what the user needs to act, the command's name first.
package enum CommandError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not `NAME=COMMAND`.
    case malformed(String)
    /// A name the command line and the CSV cannot take: lower-case letters, digits and `-`, starting with a letter.
    case invalidName(String)
    /// A strategy or an earlier command already has the name.
    case nameTaken(String)
    /// The counting library could not be built (no C compiler, no sources): `reason` says why.
    case counterMissing(path: String, reason: String)
    /// The shell could not be started (an errno).
    case cannotStart(name: String, errno: Int32)
    /// The command exited non-zero.
    case failed(name: String, status: Int32, errorTail: String)
    /// A signal ended the command.
    case killed(name: String, signal: Int32, errorTail: String)
    /// `--command-timeout` ended it.
    case timedOut(name: String, seconds: Double, errorTail: String)

    package var description: String {
        switch self {
        case .malformed(let text):
            return "--command '\(text)': expected NAME=COMMAND, as in py-naive='python3 importer.py {payload} {db}'"
        case .invalidName(let name):
            return "--command name '\(name)': use lower-case letters, digits and '-', starting with a letter"
        case .nameTaken(let name):
            return "--command name '\(name)' is taken by a strategy or another command: choose another"
        case .counterMissing(let path, let reason):
            return "cannot build the library that counts a command's statements (\(path)): \(reason)"
        case .cannotStart(let name, let errno):
            return "\(name): cannot start /bin/sh (errno \(errno))"
        case .failed(let name, let status, let tail):
            return "\(name) exited with status \(status)" + Self.tail(tail)
        case .killed(let name, let signal, let tail):
            return "\(name) was ended by signal \(signal)" + Self.tail(tail)
        case .timedOut(let name, let seconds, let tail):
            return "\(name) ran longer than --command-timeout \(Self.format(seconds)) s and was stopped" + Self.tail(tail)
        }
    }

    private static func tail(_ text: String) -> String {
        text.isEmpty ? " (it wrote nothing on standard error)" : "; the end of its standard error:\n\(text)"
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
