import CProcess
import ImportBenchCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGINT, SIGTERM and SIGHUP, done the way a long import needs them: the first asks the runner to
/// roll back the current batch and stop, and passes the signal on to a child running the import,
/// whose parent then waits for it, or to a user's command (killed if it is still running
/// `CommandProcess.stopGrace` later); a second quits at once, as the sender evidently means it
/// (GNU `timeout` sends SIGTERM to bench and then to its group, so bench sees two), yet first
/// kills a running command's group and removes the run's temporary directories, even halfway
/// through their usual removal. A CI timeout (SIGTERM) or a closed terminal (SIGHUP) so ends a run
/// as Ctrl-C does: rolled back, what stays committed said, temporary files removed, exit 128 + the
/// signal's number.
enum InterruptHandler {
    /// The signals that stop a run cleanly.
    static let stoppingSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// The child process running the current import, or 0.
    private static let child = Atomic<Int32>(0)

    /// What the first signal's note says is happening; set before the handlers are installed.
    nonisolated(unsafe) private static var stoppingNote: StaticString =
        "\nbench: stopping; rolling back the current batch (the same signal again quits at once)\n"

    /// The front end: a second signal quits at once. `note` says what stopping does (the gate
    /// removes what it built, an import rolls its batch back).
    static func install(note: StaticString? = nil) {
        if let note { stoppingNote = note }
        unblock()
        ignoreFileSizeLimitSignal()
        for number in stoppingSignals {
            signal(number) { number in
                if ImportInterruption.isRequested {
                    // Async-signal-safe, both: a relayed SIGKILL, and system calls on a fixed table.
                    importbench_command_group_signal(SIGKILL)
                    importbench_directories_remove()
                    _exit(128 + number)
                }
                ImportInterruption.request(signal: number)
                let pid = InterruptHandler.child.load(ordering: .relaxed)
                if pid > 0 { kill(pid, number) }
                // A user's command runs in a group of its own, out of the terminal's reach: passed on.
                importbench_command_group_signal(number)
                _ = InterruptHandler.stoppingNote.withUTF8Buffer { write(2, $0.baseAddress, $0.count) }
            }
        }
    }

    /// A child running one import: a terminal's Ctrl-C reaches it directly and again through its
    /// parent, so every signal only asks it to stop after rolling back. On Linux it is also sent
    /// SIGTERM when its parent dies, however the parent died (SIGKILL included), so it never
    /// imports on as an orphan; a parent already gone by then is noticed at once.
    static func installInChild(parent: Int32? = nil) {
        unblock()
        ignoreFileSizeLimitSignal()
        for number in stoppingSignals {
            signal(number) { number in ImportInterruption.request(signal: number) }
        }
        _ = importbench_signal_on_parent_death(SIGTERM)
        if let parent, getppid() != parent { ImportInterruption.request(signal: SIGTERM) }
    }

    /// A process may start with these signals blocked, inherited from whatever spawned it. The
    /// statics the handler reads are touched here first: their lazy initialisation is not
    /// async-signal-safe.
    private static func unblock() {
        _ = ImportInterruption.isRequested
        _ = child.load(ordering: .relaxed)
        _ = stoppingNote
        var set = sigset_t()
        sigemptyset(&set)
        for number in stoppingSignals { sigaddset(&set, number) }
        sigprocmask(SIG_UNBLOCK, &set, nil)
    }

    /// Under a file-size limit (`ulimit -f`), a write past it raises SIGXFSZ, which would kill the
    /// process mid-batch; ignored, the write fails with EFBIG instead, and the run reports it with
    /// what stays committed, as it does a full disk.
    private static func ignoreFileSizeLimitSignal() {
        signal(SIGXFSZ, SIG_IGN)
    }

    static func forward(to pid: Int32) {
        child.store(pid, ordering: .relaxed)
    }

    /// The exit status of a run stopped by a signal: 128 + its number (130 for SIGINT, 143 for
    /// SIGTERM, 129 for SIGHUP).
    static var exitStatus: Int32 { 128 + (ImportInterruption.requestingSignal ?? SIGINT) }
}
