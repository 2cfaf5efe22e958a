import Foundation
import ImportBenchCore
import ImportBenchReport
import Testing

@Suite("bench compare verdicts")
struct BaselineComparisonTests {
    /// Results rendered through the real CSV report, then edited the way a regression would edit them.
    private func write(_ results: [RunResult], to name: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try CSVReport.write(results, to: path)
        return path
    }

    private func baseline() -> [RunResult] {
        var naive = sampleResult(strategy: "naive", wall: 2)
        naive.measurement.counts.inserts = 40
        return [naive, sampleResult(strategy: "prewarm", wall: 1), sampleResult(strategy: "ceiling", wall: 0.5)]
    }

    private func compare(_ edit: (inout [RunResult]) -> Void) throws -> BaselineComparison {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("importbench-compare-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var current = baseline()
        edit(&current)
        return try BaselineComparison(
            baselinePath: write(baseline(), to: "base.csv", in: directory), currentPath: write(current, to: "now.csv", in: directory))
    }

    @Test(
        "a command's counts not observed: read, unjudged where neither side observed them, a regression where the baseline did",
        arguments: [true, false])
    func countsNotObserved(onBothSides: Bool) throws {
        let comparison = try compare { current in
            current[1].measurement.countedAt = .notObserved
            current[1].measurement.counts.fetches = 999  // never written: the row has no counts
        }
        // Counts the baseline observed and the current run could not: the guard is gone, which fails.
        #expect(comparison.verdict == .regression)
        #expect(comparison.changes.contains { $0.metric == "fetch_count" && $0.current.isEmpty && $0.isRegression })
        #expect(comparison.notes.contains { $0.contains("Counts not observed") && $0.contains("prewarm") })
        if onBothSides {
            // The row with counts is now the other side: still judged only on what both observed.
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("importbench-compare-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            var unobserved = baseline()
            unobserved[1].measurement.countedAt = .notObserved
            let path = try write(unobserved, to: "unobserved.csv", in: directory)
            let both = try BaselineComparison(baselinePath: path, currentPath: path)
            #expect(both.verdict == .unchanged && both.notes.contains { $0.contains("Counts not observed") })
        }
    }

    @Test("an empty count is refused in a row that was counted")
    func emptyCountRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("importbench-compare-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var unobserved = baseline()
        unobserved[1].measurement.countedAt = .notObserved
        let path = try write(unobserved, to: "edited.csv", in: directory)
        // The same row claiming to have been counted, its counts still empty.
        let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: ",not_observed", with: ",sqlite")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: ResultsInputError.self) { try BaselineComparison(baselinePath: path, currentPath: path) }
    }

    @Test("identical files: unchanged, exit 0")
    func equal() throws {
        let comparison = try compare { _ in }
        #expect(comparison.verdict == .unchanged)
        #expect(comparison.changes.isEmpty)
        #expect(comparison.compared == 3)
    }

    @Test("one fetch more is a regression naming the row; one fewer is an improvement")
    func countChanges() throws {
        let worse = try compare { $0[0].measurement.counts.fetches += 1 }
        #expect(worse.verdict == .regression)
        #expect(worse.verdict.rawValue == 2)
        #expect(worse.changes.map(\.metric) == ["fetch_count", "statement_count"])
        #expect(worse.changes.first?.key.strategy == "naive")
        #expect(worse.markdown.contains("| chat naive 1x batch 1000 | fetch_count | 120 | 121 | +1 | regression |"))
        let better = try compare { $0[0].measurement.counts.fetches -= 1 }
        #expect(better.verdict == .improvementsOnly)
        #expect(better.verdict.rawValue == 4)
    }

    @Test(
        "time is judged as a multiple of the ceiling, within the tolerance",
        arguments: [
            (1.05, BaselineComparison.Verdict.unchanged), (1.3, .regression), (0.7, .improvementsOnly),
        ])
    func timeTolerance(factor: Double, verdict: BaselineComparison.Verdict) throws {
        let comparison = try compare { $0[1].measurement.wallSeconds *= factor }
        #expect(comparison.verdict == verdict)
        if verdict != .unchanged { #expect(comparison.changes.map(\.metric) == ["wall_ratio_to_ceiling"]) }
    }

    @Test("a slower machine that slows the ceiling alike is no regression")
    func normalisedByCeiling() throws {
        let comparison = try compare { results in for index in results.indices { results[index].measurement.wallSeconds *= 2 } }
        #expect(comparison.verdict == .unchanged)
    }

    @Test("a different digest or an invalid run is a regression")
    func dataChanges() throws {
        #expect(try compare { $0[1].digest = "0000000000000001" }.verdict == .regression)
        #expect(try compare { $0[1].valid = false }.verdict == .regression)
    }

    @Test("a row missing from the current run is a regression")
    func missingRow() throws {
        let comparison = try compare { $0.removeLast() }
        #expect(comparison.verdict == .regression)
        #expect(comparison.missing.map(\.strategy) == ["ceiling"])
    }

    @Test("unusable input: a missing file, no common rows, a file without the identifying columns")
    func badInput() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("importbench-compare-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = try write(baseline(), to: "base.csv", in: directory)
        #expect(throws: (any Error).self) { _ = try BaselineComparison(baselinePath: "/nonexistent.csv", currentPath: good) }
        let other = try write([sampleResult(strategy: "naive", wall: 1, scenario: "quakes")], to: "other.csv", in: directory)
        #expect(throws: ResultsInputError.nothingInCommon(baseline: good, current: other)) {
            _ = try BaselineComparison(baselinePath: good, currentPath: other)
        }
        let headerless = directory.appendingPathComponent("x.csv").path
        try Data("a,b\n1,2\n".utf8).write(to: URL(fileURLWithPath: headerless))
        let error = #expect(throws: ResultsInputError.self) { _ = try BaselineComparison(baselinePath: good, currentPath: headerless) }
        // A results file, named as such, with the line and the column it lacks; not a payload error.
        #expect(error?.description.hasPrefix("results file \(headerless)") == true)
        #expect(error?.description.contains("scenario") == true)
    }

    @Test(
        "tolerances parse as percent or fraction, only for measured columns",
        arguments: [
            ("wall_s=25%", 0.25), ("peak_rss_bytes=0.3", 0.3),
        ])
    func tolerances(text: String, value: Double) {
        #expect(BaselineComparison.parseTolerance(text)?.1 == value)
    }

    @Test("a count cannot be given a tolerance", arguments: ["fetch_count=5%", "wall_s", "wall_s=-1%"])
    func badTolerances(text: String) {
        #expect(BaselineComparison.parseTolerance(text) == nil)
    }

    @Test("runs that differ only in journal or probe rate are separate rows, named by what differs")
    func settingsSeparateRows() throws {
        #expect {
            try compare { current in
                for index in current.indices { current[index].settings = StoreSettings(journal: .delete) }
            }
        } throws: { "\($0)".contains("share no (scenario, strategy, scale, batch size, preload, journal, synchronous, probe rate) row") }
        let probed = try compare { current in
            current[0].settings = StoreSettings(journal: .delete)
            current[0].measurement.readerProbe = ReaderProbeSummary(
                hz: 60, queries: 1, p50Seconds: 0, p99Seconds: 0, maxSeconds: 0, longestBlockedSeconds: 0)
        }
        #expect(probed.compared == 2)
        #expect(probed.missing.map(\.description) == ["chat naive 1x batch 1000"])
        #expect(probed.verdict == .regression)
    }
}
