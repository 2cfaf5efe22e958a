import Foundation
import ImportBenchCore
import Testing

@testable import ImportBenchCLI

#if canImport(Glibc)
    import Glibc
#endif

/// `bench gate` through the built binary: the base it cannot find or build fails naming it, a
/// gate against a given base judges both ways, and a stopped gate leaves nothing behind. Each runs
/// with a TMPDIR of its own, checked empty afterwards.
@Suite("bench gate through the built binary", .serialized)
struct GateCommandTests {
    /// A folder with a TMPDIR inside, and a small results file bench wrote, as a baseline.
    struct Fixture {
        let folder: URL
        let temporary: URL
        let baseline: String

        init() throws {
            folder = try RunCommandEndToEndTests.temporaryDirectory()
            temporary = folder.appendingPathComponent("tmp")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            baseline = folder.appendingPathComponent("baseline.csv").path
            let made = try IsolatedRunTests.bench([
                "run", "--scenario", "products", "--scale", "0.02", "--strategy", "upsert", "--quiet", "--csv", baseline,
            ])
            try #require(made.status == 0, "\(made.output)")
        }

        /// The baseline with its recorded revision replaced by `revision`.
        func recordRevision(_ revision: String) throws {
            let recorded = BuildIdentity.current.revision
            try #require(!recorded.isEmpty, "the tests run from a git checkout")
            let text = try String(contentsOfFile: baseline, encoding: .utf8)
            try text.replacingOccurrences(of: recorded, with: revision).write(toFile: baseline, atomically: true, encoding: .utf8)
        }

        /// Runs bench with this fixture's TMPDIR.
        func gate(_ arguments: [String]) throws -> (status: Int32, output: String) {
            let process = Process()
            process.executableURL = IsolatedRunTests.binary
            process.arguments = ["gate"] + arguments
            process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary.path]) { $1 }
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }

        var leftInTemporary: [String] { (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? ["(unreadable)"] }

        /// A git repository in the fixture's folder with `files` committed; its commit id.
        func repository(_ files: [String: String]) throws -> (URL, String) {
            let repository = folder.appendingPathComponent("repo")
            for (path, text) in files {
                let url = repository.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: url, atomically: true, encoding: .utf8)
            }
            for arguments in [["init", "-q"], ["add", "."], ["-c", "user.email=gate@test", "-c", "user.name=gate", "commit", "-qm", "base"]] {
                try #require(try Self.git(["-C", repository.path] + arguments).status == 0)
            }
            return (repository, try Self.git(["-C", repository.path, "rev-parse", "HEAD"]).output)
        }

        /// git's exit status and trimmed output, through the gate's own child runner.
        static func git(_ arguments: [String]) throws -> (status: Int32, output: String) {
            let ending = try GateChild(executable: "git", arguments: arguments).run(capture: true)
            return (ending.status, ending.output)
        }
    }

    @Test("a base it cannot name, reproduce or find fails with exit 1, saying which and what to do", arguments: ["none", "dirty", "unknown"])
    func unusableRevision(kind: String) throws {
        let fixture = try Fixture()
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        var baseline = fixture.baseline
        switch kind {
        case "none": try fixture.recordRevision("")
        case "dirty": try fixture.recordRevision("0123456789abcdef0123456789abcdef01234567-dirty")
        default:
            let (repository, _) = try fixture.repository(["README": "a repository without the baseline's commit\n"])
            try fixture.recordRevision("0000000000000000000000000000000000000001")
            baseline = repository.appendingPathComponent("baseline.csv").path
            try FileManager.default.copyItem(atPath: fixture.baseline, toPath: baseline)
        }
        let (status, output) = try fixture.gate(["--baseline", baseline, "--repetitions", "1"])
        #expect(status == 1, "\(output)")
        let expected = [
            "none": "records no git_revision", "dirty": "recorded from uncommitted code",
            "unknown": "0000000000000000000000000000000000000001 is not in the repository",
        ]
        #expect(output.contains(expected[kind] ?? "?"), "\(output)")
        #expect(fixture.leftInTemporary.isEmpty, "\(fixture.leftInTemporary)")
    }

    @Test("a base that does not build fails with exit 1 naming the revision, and its tree is removed")
    func baseThatDoesNotBuild() throws {
        let fixture = try Fixture()
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let (repository, commit) = try fixture.repository(["Package.swift": "// swift-tools-version:6.0\nthis is not a manifest\n"])
        let baseline = repository.appendingPathComponent("baseline.csv").path
        try fixture.recordRevision(commit)
        try FileManager.default.copyItem(atPath: fixture.baseline, toPath: baseline)
        let (status, output) = try fixture.gate(["--baseline", baseline, "--repetitions", "1"])
        #expect(status == 1, "\(output)")
        #expect(output.contains("building the base's bench (\(commit.prefix(12)), \(BuildIdentity.current.configuration)) failed"), "\(output)")
        #expect(fixture.leftInTemporary.isEmpty, "\(fixture.leftInTemporary)")
    }

    @Test("builds the package of this executable where it lies in the base's tree: a plug-in's beside bench, the top otherwise")
    func packageOfThisExecutable() throws {
        let folder = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plugIn = folder.appendingPathComponent("Examples/Mine")
        try FileManager.default.createDirectory(at: plugIn, withIntermediateDirectories: true)
        #expect(GateBase.relativePath(of: plugIn, inside: folder) == "Examples/Mine")
        #expect(GateBase.relativePath(of: folder, inside: folder) == "")
        #expect(GateBase.relativePath(of: folder, inside: plugIn) == nil)
        #expect(GateBase.relativePath(of: folder.appendingPathComponent("Examples/Mine/../Mine"), inside: folder) == "Examples/Mine")
        #expect(BuildIdentity.packageRoot.standardizedFileURL == BuildIdentity.sourceRoot.standardizedFileURL, "bench's tests are bench's package")
    }

    @Test("against a given base: counts judged against the baseline, times against the base, both files kept where asked")
    func givenBase() throws {
        let fixture = try Fixture()
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let kept = fixture.folder.appendingPathComponent("runs")
        // The committed baseline, read only: the base is given, so nothing is built from its revision.
        let committed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Results/baseline.csv").path
        let (status, output) = try fixture.gate(
            [
                "--baseline", committed, "--base-bench", IsolatedRunTests.binary.path, "--repetitions", "1", "--passes", "2", "--csv-folder",
                kept.path,
            ] + ["wall_s", "peak_rss_bytes", "allocated_bytes", "instructions"].flatMap { ["--tolerance", "\($0)=900%"] })
        // One repetition a side, in two passes, proves nothing: their medians are held to the tolerances, set wide
        // here (this is no timing test); the counts equal the committed ones.
        #expect(status == 0, "\(output)")
        #expect(output.contains("Counts against \(committed)") && output.contains("Times and memory against the base, measured here"))
        #expect(output.contains("run 2 of 2 (pass 2, repetition 1)") && output.contains("1 repetitions each, each the fastest of 2 passes"))
        let files = Set((try? FileManager.default.contentsOfDirectory(atPath: kept.path)) ?? [])
        #expect(files == ["base-1.csv", "base-2.csv", "current-1.csv", "current-2.csv"])
        #expect(fixture.leftInTemporary.isEmpty, "\(fixture.leftInTemporary)")
    }

    @Test("expectations judged on the current build's runs: a broken one exits 6 after both comparisons, its Markdown row printed")
    func expectations() throws {
        let fixture = try Fixture()
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let committed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Results/baseline.csv").path
        let (status, output) = try fixture.gate(
            [
                "--baseline", committed, "--base-bench", IsolatedRunTests.binary.path, "--repetitions", "1", "--passes", "1",
                "--expect", "prewarm.fetch_count <= naive.fetch_count", "--expect", "naive.fetch_count <= 0.01 * records",
            ] + ["wall_s", "peak_rss_bytes", "allocated_bytes", "instructions"].flatMap { ["--tolerance", "\($0)=900%"] })
        #expect(status == 6, "\(output)")
        #expect(output.contains("Expectations on the current build's 1 runs"))
        #expect(output.contains("| held | prewarm.fetch_count &lt;= naive.fetch_count |"), "\(output)")
        #expect(output.contains("--expect #2 naive.fetch_count <= 0.01 * records [chat 0.05x batch 500]: broken"), "\(output)")
        #expect(fixture.leftInTemporary.isEmpty, "\(fixture.leftInTemporary)")
    }

    @Test(
        "a rule naming a strategy the runs lack is refused before anything runs; one after -- is refused as the gate's",
        arguments: [
            (["--expect", "nope.wall_s <= 2"], "--expect #1 'nope.wall_s <= 2' at column 1: the run measures no strategy 'nope'"),
            (["--", "--scenario", "chat", "--expect", "naive.wall_s <= 2"], "give it before --"),
        ])
    func expectationsRefused(arguments: [String], message: String) throws {
        let fixture = try Fixture()
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let (status, output) = try fixture.gate(["--baseline", fixture.baseline, "--base-bench", IsolatedRunTests.binary.path] + arguments)
        #expect(status == 64, "\(output)")
        #expect(output.contains(message), "\(output)")
    }

    @Test("Ctrl-C during the runs: exit 130, no run left running, nothing left in TMPDIR")
    func interrupted() throws {
        let fixture = try Fixture()
        defer { try? FileManager.default.removeItem(at: fixture.folder) }
        let process = Process()
        process.executableURL = IsolatedRunTests.binary
        process.arguments = ["gate", "--baseline", fixture.baseline, "--base-bench", IsolatedRunTests.binary.path, "--repetitions", "5"]
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": fixture.temporary.path]) { $1 }
        let errors = fixture.folder.appendingPathComponent("gate.err")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Once the second repetition's runs are under way.
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, !((try? String(contentsOf: errors, encoding: .utf8)) ?? "").contains("run 1 of 10") { usleep(50_000) }
        usleep(500_000)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130, "\((try? String(contentsOf: errors, encoding: .utf8)) ?? "")")
        #expect(fixture.leftInTemporary.isEmpty, "\(fixture.leftInTemporary)")
        #expect(Self.processes(mentioning: fixture.temporary.path).isEmpty)
    }

    /// Processes whose command line names `text`.
    static func processes(mentioning text: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { $0.allSatisfy(\.isNumber) }.compactMap { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
            let line = String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
            return line.contains(text) ? "\(pid): \(line)" : nil
        }
    }
}
