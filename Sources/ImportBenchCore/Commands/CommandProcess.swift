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
    /// to the given files; waits for it (at most `timeout` seconds). `progress` hears, from another
    /// thread while this one waits, each `occurrences N` line the command writes to descriptor
    /// `BENCH_PROGRESS_FD`, and -1 twice a second so an elapsed time can be shown.
    package static func run(
        _ command: String, name: String, environment: [String: String], output: String, error: String, timeout: Double?,
        progress: ((Int) -> Void)? = nil
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
        var pid: Int32 = 0
        var watcher: Int32 = 0
        let started = ContinuousClock.now
        let code = entries.withUnsafeMutableBufferPointer { pointer in
            importbench_command_spawn("/bin/sh", command, pointer.baseAddress, outputFile, errorFile, pipeEnds[1], &pid, &watcher)
        }
        if pipeEnds[1] >= 0 { close(pipeEnds[1]) }
        guard code == 0 else {
            if pipeEnds[0] >= 0 { close(pipeEnds[0]) }
            throw .commandCannotStart(name: name, errno: code)
        }
        let listener = progress.map { ProgressListener(pipe: pipeEnds[0], report: $0) }
        let timer = timeout.map { GroupTimer(group: pid, after: $0) }
        // The shell's end, left unreaped: its pid, and so its group's id, stays its own until the
        // group is killed below, so no other process can be hit by that kill.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        let wall = ContinuousClock.now - started
        timer?.cancel()
        // Whatever the shell left behind goes with it; then the watcher, no longer needed.
        importbench_command_group_set(0)
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        var usage = rusage()
        var reaped: Int32
        repeat { reaped = wait4(pid, &status, 0, &usage) } while reaped < 0 && errno == EINTR
        if watcher > 0 {
            kill(watcher, SIGKILL)
            var ignored: Int32 = 0
            while waitpid(watcher, &ignored, 0) < 0 && errno == EINTR {}
        }
        listener?.finish()
        // SIGCHLD ignored (inherited so) reaps children by itself: nothing of the command's end is known.
        guard reaped == pid else { throw .commandCannotStart(name: name, errno: errno) }
        let exited = status & 0x7f == 0
        return CommandEnding(
            status: exited ? (status >> 8) & 0xff : nil, signal: exited ? nil : status & 0x7f,
            wallSeconds: Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18,
            userSeconds: seconds(usage.ru_utime), systemSeconds: seconds(usage.ru_stime),
            peakResidentBytes: Int64(usage.ru_maxrss) * 1024,
            // A command that ended on its own as the time ran out did not time out.
            timedOut: (timer?.fired ?? false) && !(exited && (status >> 8) & 0xff == 0))
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

/// Passes a command's progress on while bench waits for it: the `occurrences N` lines it writes to
/// its progress pipe, and a tick twice a second (-1) for the elapsed time. Its callbacks hold a lock
/// that `stop` takes too, so none runs once the caller has gone on.
final class ProgressListener: @unchecked Sendable {
    // @unchecked: `report` is only used under `lock`.
    private let lock = NSLock()
    /// Dropped by `finish`: the caller's closure is not kept past the run, however long a
    /// callback in flight holds this listener.
    private var report: ((Int) -> Void)?
    private let ticker: DispatchSourceTimer
    /// Signalled when the pipe's last writer has gone and every line is passed on.
    private let drained = DispatchSemaphore(value: 0)

    init(pipe: Int32, report: @escaping (Int) -> Void) {
        self.report = report
        ticker = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
        ticker.schedule(deadline: .now() + 0.5, repeating: 0.5)
        ticker.setEventHandler { [weak self] in self?.pass(-1) }
        ticker.resume()
        guard pipe >= 0 else {
            drained.signal()
            return
        }
        let drained = drained
        let thread = Thread { [weak self] in
            defer {
                close(pipe)
                drained.signal()
            }
            var pending = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            // read(2) returns what has arrived; FileHandle's reads wait for a full buffer or the end.
            while true {
                let count = buffer.withUnsafeMutableBytes { read(pipe, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                pending += buffer[0..<count]
                while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[pending.startIndex..<end], as: UTF8.self)
                    pending = Data(pending[pending.index(after: end)...])
                    let words = line.split(separator: " ")
                    if words.count == 2, words[0] == "occurrences", let count = Int(words[1]), count >= 0 { self?.pass(count) }
                }
            }
        }
        thread.start()
    }

    private func pass(_ occurrences: Int) {
        lock.withLock { report?(occurrences) }
    }

    /// The command and its group have ended: passes on what the pipe still holds (waiting at most
    /// half a second for a writer that escaped the group), then nothing more.
    func finish() {
        ticker.cancel()
        _ = drained.wait(timeout: .now() + 0.5)
        lock.withLock { report = nil }
    }
}
