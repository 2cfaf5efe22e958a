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
    /// How many of its processes still ran when its shell ended (bench killed them then), however
    /// they had left its process group (`setsid`, a double fork).
    package var leftRunningCount = 0
    /// The first of them, those holding the store open first.
    package var leftRunning: [NamedProcess] = []
    /// Those of `leftRunning` that held the store (or its `-wal`, `-shm` or `-journal`) open.
    package var heldStore: [NamedProcess] = []
}

/// A process as a message names it: its pid and its name (as `ps` shows it, at most 15 bytes).
package struct NamedProcess: Sendable, Equatable, Codable, CustomStringConvertible {
    package var pid: Int32
    package var name: String

    package init(pid: Int32, name: String) {
        self.pid = pid
        self.name = name
    }

    package var description: String { "\(name.isEmpty ? "process" : name) (pid \(pid))" }
}

/// Runs one command in a process group of its own under a supervisor process (Sources/CProcess,
/// command.c), its parent and the child subreaper of all it starts, and makes sure no process the
/// command starts outlives the run: when the command's shell ends, the supervisor notes and kills
/// every process of it still running, in its group or not; when the timeout passes or bench is
/// asked to stop, the group is stopped (SIGTERM, then SIGKILL after `stopGrace`); when bench dies,
/// the supervisor kills them all. bench's stopping signals reach the group through
/// `importbench_command_group_signal`, which the interrupt handler calls.
package enum CommandProcess {
    /// How long a group asked to stop (SIGTERM) has before it is killed (SIGKILL).
    static let stopGrace = 2.0
    /// What is kept of each of a command's output and error files on disk: the bytes before their
    /// last 1 MiB are freed as the command writes (a hole, `FALLOC_FL_PUNCH_HOLE`), so a command
    /// that prints gigabytes fills neither the disk nor a tmpfs.
    package static let keptStreamBytes: Int64 = 1 << 20
    /// How much of the end of a file `tail(of:)` reads: a failure's message shows at most this much.
    package static let tailBytes = 4096

    /// Runs `command` through `/bin/sh -c` with exactly `environment`, its output and error written
    /// to the given files (of which only the last `keptStreamBytes` stay on disk); waits for it (at
    /// most `timeout` seconds, or `stopGrace` after `stopRequested` turns true, the stopping
    /// signal having been passed on to the command by the interrupt handler). `store` names the
    /// file whose holders among the processes the command leaves running are reported
    /// (`CommandEnding.heldStore`). `progress` hears, from another thread while this one waits,
    /// each `occurrences N` line the command writes to descriptor `BENCH_PROGRESS_FD` (the last of
    /// those read at once), and -1 twice a second so an elapsed time can be shown.
    package static func run(
        _ command: String, name: String, environment: [String: String], output: String, error: String, timeout: Double?,
        store: String? = nil, progress: ((Int) -> Void)? = nil,
        stopRequested: @escaping @Sendable () -> Bool = { ImportInterruption.isRequested }
    ) throws(ImportError) -> CommandEnding {
        let outputFile = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let errorFile = open(error, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer {
            if outputFile >= 0 { close(outputFile) }
            if errorFile >= 0 { close(errorFile) }
        }
        // Never bench's own outputs: the command's would mix into the table.
        guard outputFile >= 0, errorFile >= 0 else { throw .commandCannotStart(name: name, errno: errno) }
        var environment = environment
        var pipeEnds: [Int32] = [-1, -1]
        if progress == nil || pipe(&pipeEnds) != 0 {
            pipeEnds = [-1, -1]
            // No pipe at 3: a descriptor the command would open there must not take progress lines.
            environment["BENCH_PROGRESS_FD"] = nil
        } else {
            // Neither end leaks into another child bench starts meanwhile; the command gets its copy at 3.
            for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            environment["BENCH_PROGRESS_FD"] = String(IMPORTBENCH_PROGRESS_FD)
        }
        var entries = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for entry in entries { free(entry) } }
        // The store as it is now, and the paths of it and its companions, for the supervisor to
        // tell which leftover process holds it.
        var watched = (store.map { path in ["", "-wal", "-shm", "-journal"].map { strdup(path + $0) } } ?? []) + [nil]
        defer { for path in watched { free(path) } }
        var identity = stat()
        if let store, stat(store, &identity) != 0 { identity = stat() }
        var child = importbench_command(pid: 0, supervisor: 0, result: -1)
        let code = entries.withUnsafeMutableBufferPointer { environmentPointer in
            watched.withUnsafeMutableBufferPointer { watchedPointer in
                importbench_command_spawn(
                    "/bin/sh", command, environmentPointer.baseAddress, outputFile, errorFile, pipeEnds[1], watchedPointer.baseAddress,
                    UInt64(identity.st_dev), UInt64(identity.st_ino), &child)
            }
        }
        if pipeEnds[1] >= 0 { close(pipeEnds[1]) }
        guard code == 0 else {
            if pipeEnds[0] >= 0 { close(pipeEnds[0]) }
            throw .commandCannotStart(name: name, errno: code)
        }
        let listener = progress.map { ProgressListener(pipe: pipeEnds[0], report: $0) }
        let watch = CommandWatch(
            command: child, timeout: timeout, grace: stopGrace, stopRequested: stopRequested, streams: [outputFile, errorFile],
            kept: keptStreamBytes)
        var result = importbench_command_result()
        let received = importbench_command_receive(&child, &result)
        let failure = errno
        // No signal is relayed once the command is released, and none is meant for it any more.
        watch.cancel()
        importbench_command_release(&child)
        listener?.finish()
        guard received == 0 else { throw .commandCannotStart(name: name, errno: failure) }
        let status = result.status
        let exited = status & 0x7f == 0
        let left = withUnsafeBytes(of: result.left) { raw in
            raw.assumingMemoryBound(to: importbench_command_leftover.self).prefix(Int(result.left_listed)).map { leftover in
                (
                    process: NamedProcess(pid: leftover.pid, name: withUnsafeBytes(of: leftover.name) { Self.text($0) }),
                    held: leftover.held_store != 0
                )
            }
        }
        return CommandEnding(
            status: exited ? (status >> 8) & 0xff : nil, signal: exited ? nil : status & 0x7f,
            wallSeconds: Double(result.wall_nanoseconds) / 1e9,
            userSeconds: Double(result.user_microseconds) / 1e6, systemSeconds: Double(result.system_microseconds) / 1e6,
            peakResidentBytes: result.peak_resident_kilobytes * 1024,
            // A command that ended on its own as the time ran out did not time out.
            timedOut: watch.timedOut && !(exited && (status >> 8) & 0xff == 0),
            leftRunningCount: Int(result.left_count), leftRunning: left.map(\.process), heldStore: left.filter(\.held).map(\.process))
    }

    /// A NUL-terminated C string in a fixed buffer.
    private static func text(_ bytes: UnsafeRawBufferPointer) -> String {
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// The last `lines` lines of a file the command wrote, for a failure's message: read from its
    /// last `bytes` bytes alone (a seek to them), however long the file, so a command that printed
    /// gigabytes costs bench 4 KiB. A line cut by that start is dropped unless it is the only one;
    /// a line longer than `lineBytes` shows its end, after "...".
    package static func tail(of path: String, lines: Int = 12, bytes: Int = tailBytes, lineBytes: Int = 400) -> String {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return "" }
        defer { close(file) }
        var status = stat()
        guard fstat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return "" }
        let start = max(0, Int64(status.st_size) - Int64(bytes))
        var buffer = [UInt8](repeating: 0, count: Int(Int64(status.st_size) - start))
        var count = 0
        while count < buffer.count {
            let got = buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return pread(file, base + count, raw.count - count, off_t(start) + off_t(count))
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            count += got
        }
        var end = buffer[..<count]
        // Begun inside a line: that line's start is not there.
        if start > 0, let newline = end.firstIndex(of: UInt8(ascii: "\n")), newline < end.endIndex - 1 {
            end = end[(newline + 1)...]
        }
        let shown = end.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).suffix(lines + 1).map { line in
            line.count > lineBytes ? "..." + String(decoding: line.suffix(lineBytes), as: UTF8.self) : String(decoding: line, as: UTF8.self)
        }
        return shown.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
