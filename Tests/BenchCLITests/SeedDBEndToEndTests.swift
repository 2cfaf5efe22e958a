import ArgumentParser
import Foundation
import ImportBenchCore
import Testing

@testable import ImportBenchCLI

@Suite("bench seed-db and seed-copy end to end")
struct SeedDBEndToEndTests {

    @Test(
        "seed-db builds a store; run --strategy prewarm,seed-copy --seed-db adopts it: exit 0, one digest")
    func buildThenAdopt() throws {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let seed = directory.appendingPathComponent("seed.sqlite").path
        let csv = directory.appendingPathComponent("r.csv").path

        let built = try IsolatedRunTests.bench(["seed-db", "--scenario", "chat", "--scale", "0.05x", "--out", seed])
        #expect(built.status == 0, "\(built.output)")
        #expect(built.output.contains("wrote \(seed)"))
        for phase in ["load", "indexes", "vacuum", "analyze", "objects", "MB", "digest"] { #expect(built.output.contains(phase)) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["seed.sqlite"])

        let run = try IsolatedRunTests.bench([
            "run", "--scenario", "chat", "--scale", "0.05x", "--strategy", "prewarm,seed-copy", "--seed-db", seed, "--csv", csv,
        ])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("seed-copy: adopting \(seed)"))
        let rows = try RunCommandEndToEndTests.csvRows(csv)
        #expect(rows.map { $0["strategy"] } == ["prewarm", "ceiling", "seed-copy"])
        #expect(rows.allSatisfy { $0["valid"] == "true" })
        let prewarm = try #require(rows.first { $0["strategy"] == "prewarm" })
        let seedCopy = try #require(rows.first { $0["strategy"] == "seed-copy" })
        #expect(prewarm["digest"] == seedCopy["digest"])
        #expect(seedCopy["digest"]?.isEmpty == false)

        let other = try IsolatedRunTests.bench([
            "run", "--scenario", "chat", "--scale", "0.05x", "--seed", "2", "--strategy", "seed-copy", "--seed-db", seed, "--quiet",
        ])
        #expect(other.status == 1)
        #expect(other.output.contains("bench seed-db --scenario chat --scale 0.05x --seed 2"))
    }

    @Test(
        "seed-db to a path that cannot be written: non-zero, naming the path, nothing written")
    func unwritable() throws {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("a-file").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        for out in [file + "/seed.sqlite", directory.appendingPathComponent("missing/seed.sqlite").path] {
            let result = try IsolatedRunTests.bench(["seed-db", "--scenario", "products", "--scale", "0.05x", "--out", out])
            #expect(result.status != 0)
            #expect(result.output.contains(out))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["a-file"])
    }

    @Test("a payload cut in half: seed-db fails naming it and leaves nothing at --out")
    func truncatedPayload() throws {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cut = try RunCommandEndToEndTests.halfPayload(in: directory)
        let out = directory.appendingPathComponent("seed.sqlite").path
        let command = try #require(try BenchCommand.parseAndCheck(["seed-db", "--payload", cut, "--out", out]) as? SeedDBCommand)
        let error = #expect(throws: CommandFailure.self) { try command.run() }
        #expect(error?.message.contains(cut) == true)
        #expect(error?.exitCode == 1)
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(!FileManager.default.fileExists(atPath: out + ".partial"))
    }
}

@Suite("bench seed-db and --seed-db arguments")
struct SeedDBParsingTests {
    private func message(_ arguments: [String]) -> String {
        do {
            _ = try BenchCommand.parseAndCheck(arguments)
            return ""
        } catch {
            return BenchCommand.message(for: error)
        }
    }

    @Test("--help explains every option of seed-db, and run's help explains --seed-db and seed-copy")
    func help() {
        let help = BenchCommand.helpMessage(for: SeedDBCommand.self)
        for option in ["--scenario", "--scale", "--seed", "--payload", "--out"] { #expect(help.contains(option), "help lacks \(option)") }
        for words in ["journal mode DELETE", "OUT.partial", "importbench_seed", "seed-copy"] { #expect(help.contains(words), "help lacks \(words)") }
        let runHelp = BenchCommand.helpMessage(for: RunCommand.self)
        for words in ["--seed-db", "seed-copy", "--preload", "quick_check"] { #expect(runHelp.contains(words), "run help lacks \(words)") }
    }

    @Test("all,seed-copy runs every import and seed-copy; all alone leaves it out")
    func strategyList() throws {
        let command = try #require(try BenchCommand.parseAndCheck(["run", "--strategy", "all,seed-copy"]) as? RunCommand)
        #expect(command.resolvedStrategies.map { $0.name } == StrategyCatalog.builtIn.names + ["seed-copy"])
        let all = try #require(try BenchCommand.parseAndCheck(["run", "--strategy", "all"]) as? RunCommand)
        #expect(all.resolvedStrategies.map { $0.name } == StrategyCatalog.builtIn.names)
    }

    @Test("--seed-db without seed-copy, a missing seed store, and seed-copy with --preload are refused, one line each")
    func refused() {
        let withoutSeedCopy = message(["run", "--strategy", "prewarm", "--seed-db", "/"])
        #expect(withoutSeedCopy.contains("--strategy seed-copy"))
        let missing = message(["run", "--strategy", "seed-copy", "--seed-db", "/nonexistent/seed.sqlite"])
        #expect(missing.contains("/nonexistent/seed.sqlite") && missing.contains("bench seed-db"))
        let preload = message(["run", "--strategy", "seed-copy", "--preload", "overlap=0.5"])
        #expect(preload.contains("--preload"))
        for text in [withoutSeedCopy, missing, preload] { #expect(!text.isEmpty && !text.contains("\n")) }
        #expect(!message(["seed-db", "--scale", "1x,2x", "--out", "x.sqlite"]).isEmpty)
        #expect(!message(["seed-db", "--scale", "1x"]).isEmpty)
    }
}
