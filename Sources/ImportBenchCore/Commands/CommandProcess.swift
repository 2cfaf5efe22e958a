import CProcess
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// How a command's process ended, measured as a whole: its start-up included, its children's
/// CPU time and memory included once it has waited for them (`wait4`).
package struct CommandEnding: Sendable, Equatable {
    /// The exit status, or nil when a signal ended it.
    package var status: Int32?
    /// The signal that ended it, if one did.
    package var signal: Int32?
    package var wallSeconds: Double
    package var userSeconds: Double
    package var systemSeconds: Double
    /// The largest resident set of the process or of any descendant it waited for, in bytes.
    package var peakResidentBytes: Int64
    /// Whether `--command-timeout` ended it.
    package var timedOut: Bool
}

/// Runs one command in a process group of its own, and makes sure no process of that group
/// outlives the run: the group is killed when the command's shell ends, when the timeout passes,
/// and, through a watcher process, when bench dies. bench's stopping signals reach the group
/// through `importbench_command_group_signal`, which the interrupt handler calls.
package enum CommandProcess {
    /// How long a group asked to stop (SIGTERM) has before it is killed (SIGKILL).
    static let stopGrace = 2.0

    /// Runs `command` through `/bin/sh -c` with exactly `environment`, its output and error written
    /// to the given files; waits for it (at most `timeout` seconds).
    package static func run(
        _ command: String, name: String, environment: [String: String], output: String, error: String, timeout: Double?
    ) throws(CommandError) -> CommandEnding {
        let outputFile = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let errorFile = open(error, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer {
            if outputFile >= 0 { close(outputFile) }
            if errorFile >= 0 { close(errorFile) }
        }
        var entries = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for entry in entries { free(entry) } }
        var pid: Int32 = 0
        var watcher: Int32 = 0
        let started = ContinuousClock.now
        let code = entries.withUnsafeMutableBufferPointer { pointer in
            importbench_command_spawn("/bin/sh", command, pointer.baseAddress, outputFile, errorFile, &pid, &watcher)
        }
        guard code == 0 else { throw .cannotStart(name: name, errno: code) }
        let timer = timeout.map { GroupTimer(group: pid, after: $0) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let wall = ContinuousClock.now - started
        timer?.cancel()
        // Whatever the shell left behind goes with it; then the watcher, no longer needed.
        importbench_command_group_set(0)
        kill(-pid, SIGKILL)
        if watcher > 0 {
            kill(watcher, SIGKILL)
            var ignored: Int32 = 0
            while waitpid(watcher, &ignored, 0) < 0 && errno == EINTR {}
        }
        let exited = status & 0x7f == 0
        return CommandEnding(
            status: exited ? (status >> 8) & 0xff : nil, signal: exited ? nil : status & 0x7f,
            wallSeconds: Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18,
            userSeconds: seconds(usage.ru_utime), systemSeconds: seconds(usage.ru_stime),
            peakResidentBytes: Int64(usage.ru_maxrss) * 1024, timedOut: timer?.fired ?? false)
    }

    private static func seconds(_ time: timeval) -> Double {
        Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000
    }

    /// The last `lines` lines of a file the command wrote, for a failure's message.
    package static func tail(of path: String, lines: Int = 12) -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return "" }
        return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines + 1)
            .joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Stops a command's group when its time is up: SIGTERM, then SIGKILL after the grace period,
/// unless the command ended first (`cancel`).
final class GroupTimer: @unchecked Sendable {
    // @unchecked: `cancelled` and `didFire` are only touched under `lock`.
    private let lock = NSLock()
    private var cancelled = false
    private var didFire = false

    init(group: Int32, after seconds: Double) {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
            guard fire() else { return }
            kill(-group, SIGTERM)
            DispatchQueue.global().asyncAfter(deadline: .now() + CommandProcess.stopGrace) { [self] in
                if !isCancelled { kill(-group, SIGKILL) }
            }
        }
    }

    /// Marks the timer fired unless cancelled first; true when it fired.
    private func fire() -> Bool {
        lock.withLock {
            guard !cancelled else { return false }
            didFire = true
            return true
        }
    }

    private var isCancelled: Bool { lock.withLock { cancelled } }

    /// Whether the timeout ended the command.
    var fired: Bool { lock.withLock { didFire } }

    /// The command ended: nothing more to stop (its group is killed by the caller anyway).
    func cancel() { lock.withLock { cancelled = true } }
}
