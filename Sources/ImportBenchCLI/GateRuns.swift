import Foundation
import ImportBenchCore

/// The two builds' runs of one preset (or of the run arguments given), a repetition at a time and in turn, the order alternating
/// (base, current, current, base, ...), so a machine that drifts during the gate (a neighbour, heat,
/// frequency) weighs on both sides alike; in passes, so a burst of interference that slows a few
/// runs in a row leaves each repetition's other pass untouched. Each run is a whole `bench run` of
/// its own, so the base needs nothing newer than `run --preset --repetitions --quiet --csv`.
struct GateRuns {
    let base: URL
    let current: URL
    /// What each run runs: `--preset ci`, or the runs a plug-in's gate names (`--scenario ...`).
    let runArguments: [String]
    let folder: URL
    private(set) var baseFiles: [String] = []
    private(set) var currentFiles: [String] = []

    init(base: URL, current: URL, runArguments: [String], folder: URL) throws {
        self.base = base
        self.current = current
        self.runArguments = runArguments
        self.folder = folder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// Runs `passes` passes of `repetitions` on each side, one repetition at a time, saying how each
    /// went on standard error. The files of a side are in the order run: repetition i of pass p is
    /// file (p - 1) * repetitions + i, which `BaselineComparison(passes:)` pairs back.
    mutating func interleave(_ repetitions: Int, passes: Int) throws {
        let total = repetitions * passes
        for number in 1...total {
            let baseFirst = number % 2 == 1
            var seconds: [String: Double] = [:]
            for side in baseFirst ? ["base", "current"] : ["current", "base"] {
                let path = folder.appendingPathComponent("\(side)-\(number).csv").path
                seconds[side] = try run(side == "base" ? base : current, side: side, writing: path)
                if side == "base" { baseFiles.append(path) } else { currentFiles.append(path) }
            }
            let pass = passes > 1 ? String(format: " (pass %d, repetition %d)", (number - 1) / repetitions + 1, (number - 1) % repetitions + 1) : ""
            FileHandle.standardError.write(
                Data(
                    String(
                        format: "gate: run %d of %d%@: base %.1f s, current %.1f s\n", number, total, pass, seconds["base"] ?? 0,
                        seconds["current"] ?? 0
                    ).utf8))
        }
    }

    /// One repetition of the runs by one build; its wall time, start-up included.
    private func run(_ binary: URL, side: String, writing path: String) throws -> Double {
        let started = ContinuousClock.now
        let child = GateChild(
            executable: binary.path, arguments: ["run"] + runArguments + ["--repetitions", "1", "--quiet", "--csv", path],
            errorLog: URL(fileURLWithPath: path + ".stderr"))
        let ending = try child.run(quiet: true)
        guard ending.status == 0 else {
            throw CommandFailure.gate(.runFailed(side: side, binary: binary.path, status: ending.status, errorTail: child.errorTail()))
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure.gate(
                .runFailed(
                    side: side, binary: binary.path, status: 0, errorTail: "it wrote no results file (is it a bench of csv_version 1 or later?)"))
        }
        try? FileManager.default.removeItem(atPath: path + ".stderr")
        return GateCommand.seconds(ContinuousClock.now - started)
    }
}
