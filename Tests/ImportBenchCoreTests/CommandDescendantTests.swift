import Foundation
import ImportBenchCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// No process a command starts outlives its run (issue 47, item 3), however it leaves the
/// command's process group (`setsid`, a double fork), and one that held the store is named; a
/// command that ignores the stopping signal is killed the grace after it.
@Suite("A command's descendants")
struct CommandDescendantTests {
    /// The pids of processes whose command line is exactly `arguments`.
    static func processes(_ arguments: [String]) -> [Int32] {
        let wanted = Data(arguments.joined(separator: "\0").utf8) + Data([0])
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") == wanted
        }
    }

    private func run(
        _ command: String, in directory: TemporaryDirectory, store: String? = nil,
        stopRequested: @escaping @Sendable () -> Bool = { false }
    ) throws -> CommandEnding {
        try CommandProcess.run(
            command, name: "c", environment: ProcessInfo.processInfo.environment, output: directory.path("out"),
            error: directory.path("err"), timeout: 60, store: store, stopRequested: stopRequested)
    }

    @Test("a process started with setsid, out of the command's group, is found and killed when the command ends")
    func setsidDaemon() throws {
        let directory = try TemporaryDirectory()
        let sleeper = ["sleep", "301.25"]
        // It has left the group before the command ends: the command waits until it has started.
        let started = directory.path("started")
        let ending = try run(
            "setsid sh -c 'echo > \"\(started)\"; exec \(sleeper.joined(separator: " "))' & while [ ! -e '\(started)' ]; do sleep 0.02; done",
            in: directory)
        #expect(ending.status == 0)
        #expect(Self.processes(sleeper).isEmpty, "the daemon outlived the run")
        // Named as it was when the command ended: sh, or sleep once it has run exec.
        #expect(ending.leftRunningCount == 1 && ending.leftRunning.count == 1, "\(ending)")
        #expect(ending.heldStore.isEmpty)
    }

    @Test("a double-forked daemon in a session of its own holding the store open: killed, and named as holding it")
    func doubleForkHoldingTheStore() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("store.sqlite")
        try Data("a store".utf8).write(to: URL(fileURLWithPath: store))
        let ready = directory.path("ready")
        // Fork, setsid, fork: the grandchild holds the store; the command waits only until it does.
        let daemon = """
            import os, sys, time
            if os.fork():
                while not os.path.exists(sys.argv[2]): time.sleep(0.01)
                sys.exit(0)
            os.setsid()
            if os.fork(): os._exit(0)
            held = open(sys.argv[1], 'rb')
            open(sys.argv[2], 'w').close()
            time.sleep(302.5)
            """
        try daemon.write(toFile: directory.path("daemon.py"), atomically: true, encoding: .utf8)
        let ending = try run("python3 '\(directory.path("daemon.py"))' '\(store)' '\(ready)'", in: directory, store: store)
        #expect(ending.status == 0)
        let holders = ending.heldStore
        #expect(holders.count == 1 && holders.first?.name == "python3", "\(ending)")
        if let pid = holders.first?.pid { #expect(kill(pid, 0) != 0, "the daemon outlived the run") }
        // A process of the group that holds it through an inherited descriptor, and one that does not.
        let inherited = try run(
            "exec 5<'\(store)'; sleep 303.5 & exec 5<&-; setsid sleep 304.5 </dev/null & exit 0", in: directory, store: store)
        #expect(inherited.leftRunningCount == 2 && inherited.heldStore.count == 1, "\(inherited)")
        #expect(Self.processes(["sleep", "303.5"]).isEmpty && Self.processes(["sleep", "304.5"]).isEmpty)
    }

    @Test("asked to stop, a command that ignores SIGTERM is killed the grace after: bench does not wait on it")
    func stopIgnored() throws {
        let directory = try TemporaryDirectory()
        let started = ContinuousClock.now
        let stop = { @Sendable in ContinuousClock.now - started > .milliseconds(300) }
        let ending = try run("trap '' TERM; sleep 45.5; sleep 46.5", in: directory, stopRequested: stop)
        #expect(ending.signal == SIGKILL)
        // Not the 92 s the command would take: killed, not waited for.
        #expect(ContinuousClock.now - started < .seconds(40))
        #expect(Self.processes(["sleep", "45.5"]).isEmpty)
    }
}
