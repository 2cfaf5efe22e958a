import Foundation
import ImportBenchCore
import ImportBenchReport
import Testing

/// What compare does with files from other builds and machines, and how the gate's side-by-side
/// comparison judges two builds' interleaved repetitions.
@Suite("Comparison footing: builds, machines, side by side")
struct ComparisonFootingTests {
    /// Nine repetitions of naive and prewarm, with CPU times; `edit` changes each result.
    private func results(cpu prewarm: Double = 0.036, scatter: Double = 0.01, _ edit: (inout RunResult) -> Void = { _ in }) -> [RunResult] {
        (1...9).flatMap { repetition in
            [("naive", 0.04), ("prewarm", prewarm)].map { name, cpu in
                var result = sampleResult(strategy: name, wall: cpu * 1.1, repetition: repetition)
                result.measurement.cpuUserSeconds = cpu * (1 + scatter * Double(repetition % 3 - 1))
                result.measurement.cpuSystemSeconds = 0
                result.cReferenceSeconds = 0.003
                result.cReferenceCPUSeconds = 0.003
                result.build = BuildIdentity(configuration: "debug", revision: "0123456789abcdef0123456789abcdef01234567")
                edit(&result)
                return result
            }
        }
    }

    private func write(_ results: [RunResult], _ name: String, in folder: TemporaryFolder) throws -> String {
        let path = folder.url.appendingPathComponent(name).path
        try CSVReport.write(results, to: path)
        return path
    }

    @Test("a release run against a debug baseline: timings refused naming both builds, counts still judged")
    func otherBuildRefused() throws {
        let folder = try TemporaryFolder()
        let baseline = try write(results(), "baseline.csv", in: folder)
        let current = try write(
            results(cpu: 0.01) { result in
                result.build = BuildIdentity(configuration: "release", revision: result.build.revision)
                if result.strategy == "naive" { result.measurement.counts.fetches += 1 }
            }, "current.csv", in: folder)
        let comparison = try BaselineComparison(baselinePath: baseline, currentPath: current)
        #expect(comparison.timingsRefused?.contains("debug build") == true)
        #expect(comparison.timingsRefused?.contains("release build") == true)
        #expect(comparison.markdown.contains("Timings not judged: the baseline is a debug build's and the current run a release build's"))
        // Prewarm is four times faster, unjudged; naive's extra fetch is still a regression.
        #expect(comparison.changes.map(\.metric).allSatisfy { ["fetch_count", "statement_count"].contains($0) }, "\(comparison.markdown)")
        #expect(comparison.verdict == .regression)
        #expect(comparison.timingsTested == 0)
    }

    @Test("another machine: timings judged, and the report says so and points to bench gate")
    func otherMachineNoted() throws {
        let folder = try TemporaryFolder()
        let baseline = try write(results(), "baseline.csv", in: folder)
        let current = try write(results { $0.environment.kernel = "kernel-of-another-machine" }, "current.csv", in: folder)
        let comparison = try BaselineComparison(baselinePath: baseline, currentPath: current)
        #expect(comparison.timingsRefused == nil)
        #expect(comparison.timingsTested > 0)
        let note = try #require(comparison.notes.first)
        #expect(note.contains("different machines") && note.contains("kernel-of-another-machine") && note.contains("bench gate"))
        #expect(comparison.markdown.contains(note))
        let same = try BaselineComparison(baselinePath: baseline, currentPath: try write(results(), "again.csv", in: folder))
        #expect(same.notes.isEmpty)
    }

    @Test("a baseline without the build columns (csv_version 6) is judged as before, with a note")
    func olderBaselineNoted() throws {
        let folder = try TemporaryFolder()
        let current = try write(results(), "current.csv", in: folder)
        let text = try String(contentsOfFile: current, encoding: .utf8)
        // The same rows as a version 6 file: the columns 7 appended cut off, the version set back.
        let old = text.split(separator: "\r\n").map { line -> String in
            var fields = parseCSV(String(line) + "\r\n")[0]
            if let index = ResultColumns.names.firstIndex(of: "build_config") { fields = Array(fields.prefix(index)) }
            if let version = ResultColumns.names.firstIndex(of: "csv_version"), fields[version] != "csv_version" { fields[version] = "6" }
            return CSVWriter.record(fields)
        }.joined()
        let baseline = try folder.write(old, to: "baseline-v6.csv")
        let comparison = try BaselineComparison(baselinePath: baseline, currentPath: current)
        #expect(comparison.baselineProvenance.buildConfiguration.isEmpty && comparison.baselineProvenance.csvVersion == 6)
        #expect(comparison.notes.contains { $0.contains("The baseline records no build configuration (csv_version 6") })
        #expect(comparison.timingsTested > 0 && comparison.verdict == .unchanged, "\(comparison.markdown)")
    }

    @Test("repetitions spread over one file each are read as one run's")
    func repetitionsFromSeveralFiles() throws {
        let folder = try TemporaryFolder()
        let all = results()
        let paths = try (1...9).map { repetition in
            try write(
                all.filter { $0.repetition == repetition }.map {
                    var one = $0
                    one.repetition = 1
                    return one
                }, "rep-\(repetition).csv", in: folder)
        }
        let spread = try ResultTable(paths: paths, columns: ["wall_s"])
        let whole = try ResultTable(path: try write(all, "whole.csv", in: folder), columns: ["wall_s"])
        #expect(spread.rows.count == 2)
        for key in whole.rows.keys {
            #expect(spread.samples[key]?[ResultTable.cpuSeconds]?.sorted() == whole.samples[key]?[ResultTable.cpuSeconds]?.sorted())
            #expect(spread.samples[key]?[ResultTable.cpuSeconds]?.count == 9)
        }
    }

    @Test(
        "side by side: CPU time judged directly, a 25 % slower strategy caught, counts and missing rows left to the baseline", arguments: [1.0, 1.25])
    func sideBySide(factor: Double) throws {
        let folder = try TemporaryFolder()
        let base = try write(results(), "base.csv", in: folder)
        // The current build also counts differently and lacks naive's row: neither is this comparison's to judge.
        let current = try write(
            results(cpu: 0.036 * factor) { $0.measurement.counts.fetches += 7 }.filter { $0.strategy == "prewarm" }, "current.csv", in: folder)
        let comparison = try BaselineComparison(
            baselinePaths: [base], currentPaths: [current], tolerances: BaselineComparison.defaultTolerances, scope: .sideBySide)
        #expect(comparison.missing.isEmpty)
        #expect(comparison.changes.allSatisfy { $0.metric == ResultTable.cpuSeconds }, "\(comparison.markdown)")
        #expect(comparison.verdict == (factor > 1 ? .regression : .unchanged), "\(comparison.markdown)")
        if factor > 1 {
            let change = try #require(comparison.changes.first?.test)
            #expect(change.lower > 0.2 && change.upper < 0.3, "\(change)")
        }
    }
}
