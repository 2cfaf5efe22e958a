import ImportBenchCore

/// A results CSV read back: one aggregated row per (scenario, strategy, scale, batch size, preload, store settings).
/// Counts come from the first repetition (they are deterministic); measured values are medians.
package struct ResultTable {
    package struct Key: Hashable, Comparable, CustomStringConvertible {
        package let scenario: String
        package let strategy: String
        package let scale: String
        package let batchSize: String
        package let preload: String
        /// Journal, synchronous and probe rate, as "journal wal, synchronous normal, probe 60 Hz": a sweep
        /// over them yields distinct rows. Empty for a CSV older than these columns.
        package let settings: String

        /// Not repeated on every row of a report.
        static let defaultSettings = "journal \(StoreSettings.default.journal.rawValue), synchronous \(StoreSettings.default.synchronous.rawValue)"

        package var description: String {
            "\(scenario) \(strategy) \(scale) batch \(batchSize)" + (preload.isEmpty ? "" : " preload \(preload)")
                + (settings.isEmpty || settings == Self.defaultSettings ? "" : " (\(settings))")
        }

        package static func < (lhs: Key, rhs: Key) -> Bool {
            [lhs.scenario, lhs.scale, lhs.batchSize, lhs.preload, lhs.settings, lhs.strategy]
                .lexicographicallyPrecedes([rhs.scenario, rhs.scale, rhs.batchSize, rhs.preload, rhs.settings, rhs.strategy])
        }
    }

    /// Column values by name, as text.
    package private(set) var rows: [Key: [String: String]] = [:]
    /// Per row, each measured column's value in every repetition that has one, `wallPerCReference`
    /// for repetitions that give both times, and `cpuPerCReference`.
    package private(set) var samples: [Key: [String: [Double]]] = [:]

    /// Wall time over the C reference of the same repetition (`c_reference_s`): time as files
    /// before csv_version 6 let compare judge it.
    package static let wallPerCReference = "wall_s / c_reference_s"
    /// Each repetition's CPU time (user and system) over the median of the run's C reference CPU
    /// times: how compare judges time. Both are the work done, so a machine kept busy by others
    /// inflates neither, and the C reference carries the comparison from one machine to another.
    /// The median, not the same repetition's: a replay of a few milliseconds scatters by several
    /// per cent, which divided into each repetition tripled the imports' own scatter (CPU time
    /// does not move with load, so pairing repetitions bought nothing).
    package static let cpuPerCReference = "cpu_s / median c_reference_cpu_s"
    /// Each repetition's CPU time, user and system: how the gate judges time between two builds run
    /// in turn on one machine, where the C reference has nothing to carry and its replay of a few
    /// milliseconds would only add its scatter.
    package static let cpuSeconds = "cpu_s"
    /// The file read, or the first of several.
    package var path: String { paths.first ?? "" }
    /// The files read: the repetitions of one run may come from several (the gate's interleaved runs).
    package let paths: [String]
    /// What made the first file: its build and machine.
    package let provenance: ResultsProvenance

    static let identity = ["scenario", "strategy", "scale", "batch_size"]
    static let settingsColumns = ["journal_mode", "synchronous", "probe_reads_hz", "pragmas", "decode_ahead"]

    /// Reads `path`; a missing file, a header without the identifying columns or a ragged row is a
    /// `ResultsInputError.malformed` naming the file and line.
    package init(path: String, columns: [String]) throws {
        try self.init(paths: [path], columns: columns)
    }

    /// Reads every file in `paths` as one run's: rows of the same key from several files are
    /// repetitions of that run. The files should come from one build on one machine.
    package init(paths: [String], columns: [String]) throws {
        self.paths = paths
        var grouped: [Key: [[String: String]]] = [:]
        var first: [String: String]?
        for path in paths {
            let (rows, firstRow) = try Self.repetitions(in: path, columns: columns)
            grouped.merge(rows) { $0 + $1 }
            first = first ?? firstRow
        }
        provenance = ResultsProvenance(row: first ?? [:])
        for (key, repetitions) in grouped {
            var row = repetitions[0]
            var series: [String: [Double]] = [:]
            for name in columns where ResultColumns.judgement(of: name) == .measured {
                let values = repetitions.compactMap { $0[name].flatMap(Double.init) }
                guard !values.isEmpty else { continue }
                series[name] = values
                row[name] = String(SummaryTable.median(values))
            }
            func ratios(_ numerator: ([String: String]) -> Double?, over denominator: ([String: String]) -> Double?) -> [Double] {
                repetitions.compactMap { repetition in
                    guard let value = numerator(repetition), let reference = denominator(repetition), value > 0, reference > 0 else { return nil }
                    return value / reference
                }
            }
            func number(_ name: String) -> ([String: String]) -> Double? { { $0[name].flatMap(Double.init) } }
            series[Self.wallPerCReference] = ratios(number("wall_s"), over: number("c_reference_s"))
            let cpu = repetitions.compactMap { repetition -> Double? in
                guard let user = number("cpu_user_s")(repetition), let system = number("cpu_sys_s")(repetition), user + system > 0 else { return nil }
                return user + system
            }
            if !cpu.isEmpty { series[Self.cpuSeconds] = cpu }
            let referenceCPU = repetitions.compactMap(number("c_reference_cpu_s")).filter { $0 > 0 }
            if !referenceCPU.isEmpty {
                let reference = SummaryTable.median(referenceCPU)
                series[Self.cpuPerCReference] = ratios(
                    { repetition in
                        guard let user = number("cpu_user_s")(repetition), let system = number("cpu_sys_s")(repetition) else { return nil }
                        return user + system
                    }, over: { _ in reference })
            }
            rows[key] = row
            samples[key] = series
        }
    }

    /// The same rows with each measured series cut into `passes` equal passes (the repetitions in
    /// the order read) and each repetition's values across the passes reduced to the lowest: the
    /// fastest of repetition i in pass 1, pass 2, ... A busy neighbour or a burst of interference only
    /// ever adds time, so the lowest of runs minutes apart keeps a repetition that a burst hit in one
    /// pass; a series that does not divide into the passes is left as it is.
    package func fastest(ofPasses passes: Int) -> ResultTable {
        guard passes > 1 else { return self }
        var reduced = self
        for (key, series) in samples {
            reduced.samples[key] = series.mapValues { values in
                guard values.count % passes == 0, values.count >= passes else { return values }
                let length = values.count / passes
                return (0..<length).map { index in stride(from: index, to: values.count, by: length).map { values[$0] }.min() ?? values[index] }
            }
        }
        return reduced
    }

    /// Every row of `path`, grouped by key: the repetitions of each run.
    private static func repetitions(in path: String, columns: [String]) throws -> (rows: [Key: [[String: String]]], first: [String: String]?) {
        let file = try ResultsFile(results: path)
        let wanted =
            identity + ["preload", "c_reference_s", "c_reference_cpu_s", "cpu_user_s", "cpu_sys_s"] + settingsColumns + columns
            + ResultsProvenance.columns
        var grouped: [Key: [[String: String]]] = [:]
        var first: [String: String]?
        for fileRow in file.rows {
            var row: [String: String] = [:]
            for name in wanted { if let text = fileRow.text(name) { row[name] = text } }
            let key = Key(
                scenario: row["scenario"] ?? "", strategy: row["strategy"] ?? "", scale: row["scale"] ?? "",
                batchSize: row["batch_size"] ?? "", preload: row["preload"] ?? "", settings: settings(of: row))
            grouped[key, default: []].append(row)
            first = first ?? row
        }
        return (grouped, first)
    }

    static func settings(of row: [String: String]) -> String {
        var parts: [String] = []
        if let journal = row["journal_mode"], !journal.isEmpty { parts.append("journal \(journal)") }
        if let synchronous = row["synchronous"], !synchronous.isEmpty { parts.append("synchronous \(synchronous)") }
        if let hz = row["probe_reads_hz"], !hz.isEmpty { parts.append("probe \(hz) Hz") }
        if let pragmas = row["pragmas"], !pragmas.isEmpty { parts.append(pragmas.replacingOccurrences(of: ";", with: ", ")) }
        // Off, or a file older than the column: decoded as the import needed each batch.
        if row["decode_ahead"] == "on" { parts.append("decode ahead") }
        return parts.joined(separator: ", ")
    }
}
