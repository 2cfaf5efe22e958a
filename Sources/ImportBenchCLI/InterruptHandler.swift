#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ImportBenchCore
import Synchronization

/// SIGINT, done the way a long import needs it: the first one asks the runner to roll back the
/// current batch and stop (and passes the signal on to a child running the import); a second one
/// quits at once, as the user evidently means it.
enum InterruptHandler {
    /// The child process running the current import, or 0.
    private static let child = Atomic<Int32>(0)

    /// The front end: a second SIGINT quits at once.
    static func install() {
        unblock()
        signal(SIGINT) { _ in
            if ImportInterruption.isRequested { _exit(130) }
            ImportInterruption.request()
            let pid = InterruptHandler.child.load(ordering: .relaxed)
            if pid > 0 { kill(pid, SIGINT) }
            let note: StaticString = "\nbench: interrupted; rolling back the current batch (Ctrl-C again to quit at once)\n"
            _ = note.withUTF8Buffer { write(2, $0.baseAddress, $0.count) }
        }
    }

    /// A child running one import: a terminal's Ctrl-C reaches it directly and again through its
    /// parent, so every SIGINT only asks it to stop after rolling back.
    static func installInChild() {
        unblock()
        signal(SIGINT) { _ in ImportInterruption.request() }
    }

    /// A process may start with SIGINT blocked, inherited from whatever spawned it. The statics the
    /// handler reads are touched here first: their lazy initialisation is not async-signal-safe.
    private static func unblock() {
        _ = ImportInterruption.isRequested
        _ = child.load(ordering: .relaxed)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigprocmask(SIG_UNBLOCK, &set, nil)
    }

    static func forward(to pid: Int32) {
        child.store(pid, ordering: .relaxed)
    }
}
