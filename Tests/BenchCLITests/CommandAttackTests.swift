import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The hostile commands of issue 47 against the built bench: a command printing a gigabyte, one
/// that leaves a daemon behind, one that traps the stopping signal, one that deletes its store.
@Suite("Hostile commands against bench", .serialized)
struct CommandAttackTests {
    static let products = ["--scenario", "products", "--scale", "0.02", "--strategy", "upsert"]
    static let common = ["run"] + products + ["--quiet"]
    static let importer = CommandMethodTests.examples.appendingPathComponent("products_naive.py").path

    /// bench started with `arguments`, its output to a file, in a TMPDIR of its own.
    struct Launched {
        let process = Process()
        let folder: URL
        let temporary: URL
        let output: URL

        init(_ arguments: [String]) throws {
            folder = try RunCommandEndToEndTests.temporaryDirectory()
            temporary = folder.appendingPathComponent("tmp")
            output = folder.appendingPathComponent("output")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            process.executableURL = IsolatedRunTests.binary
            process.arguments = arguments + ["--csv", folder.appendingPathComponent("r.csv").path]
            process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary.path]) { $1 }
            let handle = try FileHandle(forWritingTo: output)
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
        }

        var text: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }
        /// What bench left in its TMPDIR.
        var leftovers: [String] { (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? ["?"] }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    /// Waits (at most a minute) until a process runs `arguments`.
    static func waitFor(_ arguments: [String]) -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while CommandMethodTests.processes(arguments).isEmpty {
            if ContinuousClock.now > deadline { return false }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return true
    }

    @Test("a command printing 1 GB on standard error and exiting 0: bench's peak RSS stays under 100 MB")
    func gigabyteOnStandardError() throws {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // python3 measures its child, bench (and the largest process bench waited for, none of them large).
        let measure =
            "import resource, subprocess, sys; r = subprocess.run(sys.argv[1:]); "
            + "print('status', r.returncode, 'peak', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
        let arguments =
            ["python3", "-c", measure, IsolatedRunTests.binary.path] + Self.common
            + [
                "--command", #"loud=head -c 1000000000 /dev/zero | tr '\0' x >&2; python3 '\#(Self.importer)'"#,
                "--csv", directory.appendingPathComponent("r.csv").path,
            ]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let words = text.split(whereSeparator: \.isWhitespace).suffix(4).map(String.init)
        #expect(words.count == 4 && words[0] == "status" && words[1] == "0", "\(text.suffix(2000))")
        let peakKilobytes = try #require(Int(words.last ?? ""), "\(text.suffix(2000))")
        #expect(peakKilobytes < 100 * 1024, "bench's peak RSS was \(peakKilobytes / 1024) MB")
    }

    @Test("a daemon started with setsid does not outlive bench, and one killed with bench (SIGKILL) neither")
    func daemons() throws {
        let sleeper = ["sleep", "301.125"]
        // The daemon has left the group before the command ends: the command waits until it has started.
        let daemon =
            #"python3 '\#(Self.importer)' && { setsid sh -c 'echo > "$TMPDIR/started"; exec \#(sleeper.joined(separator: " "))' & } && "#
            + #"while [ ! -e "$TMPDIR/started" ]; do sleep 0.02; done"#
        let (status, output, rows) = try CommandMethodTests.run(Self.products + ["--command", "daemon=\(daemon)"])
        #expect(status == 0, "\(output)")
        #expect(rows["daemon"]?["valid"] == "true", "\(output)")
        #expect(CommandMethodTests.processes(sleeper).isEmpty, "the daemon outlived the run")

        let escaped = ["sleep", "302.125"]
        let waited = ["sleep", "303.125"]
        let launched = try Launched(
            Self.common + ["--command", "hang=setsid \(escaped.joined(separator: " ")) & \(waited.joined(separator: " "))"])
        defer { launched.remove() }
        try #require(Self.waitFor(waited) && Self.waitFor(escaped), "the command never started")
        kill(launched.process.processIdentifier, SIGKILL)
        launched.process.waitUntilExit()
        let deadline = ContinuousClock.now + .seconds(5)
        while !(CommandMethodTests.processes(escaped) + CommandMethodTests.processes(waited)).isEmpty, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(CommandMethodTests.processes(escaped).isEmpty, "the daemon outlived bench")
        #expect(CommandMethodTests.processes(waited).isEmpty, "the command outlived bench")
    }

    @Test("SIGTERM while the command ignores it: bench exits 143 within seconds, leaving no process and no temporary directory")
    func termIgnored() throws {
        let sleeper = ["sleep", "41.125"]
        let launched = try Launched(Self.common + ["--command", "trapper=trap '' TERM; \(sleeper.joined(separator: " ")); true"])
        defer { launched.remove() }
        try #require(Self.waitFor(sleeper), "the command never started")
        let signalled = ContinuousClock.now
        kill(launched.process.processIdentifier, SIGTERM)
        launched.process.waitUntilExit()
        #expect(launched.process.terminationStatus == 128 + SIGTERM, "\(launched.text)")
        // Not the 41 s the command would take: it is killed the grace after.
        #expect(ContinuousClock.now - signalled < .seconds(30))
        #expect(launched.leftovers.isEmpty, "left in TMPDIR: \(launched.leftovers)")
        #expect(CommandMethodTests.processes(sleeper).isEmpty)
    }

    @Test("SIGTERM twice while the command ignores it: bench quits at once, yet leaves no process and no temporary directory")
    func termTwice() throws {
        let sleeper = ["sleep", "42.125"]
        let launched = try Launched(Self.common + ["--command", "trapper=trap '' TERM; \(sleeper.joined(separator: " ")); true"])
        defer { launched.remove() }
        try #require(Self.waitFor(sleeper), "the command never started")
        let signalled = ContinuousClock.now
        kill(launched.process.processIdentifier, SIGTERM)
        Thread.sleep(forTimeInterval: 0.3)
        kill(launched.process.processIdentifier, SIGTERM)
        launched.process.waitUntilExit()
        #expect(launched.process.terminationStatus == 128 + SIGTERM, "\(launched.text)")
        // Not the 42 s the command would take.
        #expect(ContinuousClock.now - signalled < .seconds(30))
        #expect(launched.leftovers.isEmpty, "left in TMPDIR: \(launched.leftovers)")
        Thread.sleep(forTimeInterval: 1)
        #expect(CommandMethodTests.processes(sleeper).isEmpty)
    }

    @Test("a command that deletes its store: exit 1, the command and the store named, nothing said of what the store holds")
    func deletesItsStore() throws {
        let (status, output, _) = try CommandMethodTests.run(
            Self.products + ["--command", #"eraser=python3 '\#(Self.importer)' && rm -f "$BENCH_DB""#])
        #expect(status == 1, "\(output)")
        #expect(output.contains("eraser deleted its store: nothing is at /") && output.contains("eraser.sqlite"), "\(output)")
        #expect(!output.contains("its store holds") && !output.contains("no such table"), "\(output)")
    }
}
