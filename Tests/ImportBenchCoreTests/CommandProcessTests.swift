import Foundation
import ImportBenchCore
import Synchronization
import Testing

/// A command run as a strategy, at the process level: its ending, its progress, its paths.
@Suite("A command's process")
struct CommandProcessTests {
    private func folder() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("importbench-command-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("progress lines on BENCH_PROGRESS_FD reach bench as they come, every one before the run returns")
    func progress() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let heard = Mutex<[Int]>([])
        let ending = try CommandProcess.run(
            #"echo "occurrences 5" >&3; sleep 0.3; echo "occurrences 10" >&"$BENCH_PROGRESS_FD"; echo "not a count" >&3"#,
            name: "reporter", environment: ProcessInfo.processInfo.environment,
            output: directory.appendingPathComponent("out").path, error: directory.appendingPathComponent("err").path, timeout: nil
        ) { occurrences in heard.withLock { $0.append(occurrences) } }
        #expect(ending.status == 0 && ending.signal == nil && !ending.timedOut)
        #expect(ending.wallSeconds >= 0.3)
        let values = heard.withLock { $0 }
        // The ticks between (-1) depend on the machine's load, so only the lines are held to.
        #expect(values.filter { $0 >= 0 } == [5, 10])
    }

    @Test("an exit status, a signal and a timeout are told apart")
    func endings() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        func run(_ command: String, timeout: Double? = nil) throws -> CommandEnding {
            try CommandProcess.run(
                command, name: "c", environment: ProcessInfo.processInfo.environment, output: directory.appendingPathComponent("out").path,
                error: directory.appendingPathComponent("err").path, timeout: timeout)
        }
        #expect(try run("exit 7").status == 7)
        let killed = try run("kill -9 $$")
        #expect(killed.status == nil && killed.signal == 9)
        let hung = try run("sleep 30", timeout: 0.5)
        #expect(hung.timedOut && hung.signal == 15 && hung.wallSeconds < 10)
    }

    @Test("{payload} and {db} become one shell word each, whatever the path holds")
    func placeholders() throws {
        let command = try CommandMethod(parsing: "mine=cat {payload} > /dev/null && echo {db}")
        #expect(command.name == "mine")
        #expect(
            command.resolved(payload: "/tmp/a b/it's.json", database: "/tmp/x.sqlite")
                == #"cat '/tmp/a b/it'\''s.json' > /dev/null && echo '/tmp/x.sqlite'"#)
        #expect(throws: ImportError.malformedCommand("no-equals-sign")) { try CommandMethod(parsing: "no-equals-sign") }
        #expect(throws: ImportError.invalidName("Mine", origin: .command)) { try CommandMethod(parsing: "Mine=true") }
    }
}
