import Foundation
import ImportBenchCore
import ImportBenchPayload

/// The charts a report draws from results CSVs: per scenario (and preload), wall time and fetches
/// against payload size on log-log axes with the fitted growth exponent, peak memory, and reader
/// latency by batch size when the runs were probed. Repetitions fold into a median with a min-max
/// whisker; every setting that varies (batch size, journal, synchronous, probe rate) gets its own
/// panel, with the same axes across panels so they compare at a glance. A probed run is slower (the
/// reader holds locks the writer waits for), so probed and unprobed runs are never folded together.
package struct ChartReport: Sendable {
    /// A charted column of the results contract: which chart it gets and the words for it come
    /// from its declaration in `ResultColumns`.
    package struct Metric: Hashable, Sendable {
        /// The CSV column charted.
        package let column: String
        package let unit: ResultColumn.Unit
        package let chart: ResultColumn.Chart

        /// Every charted column, in its place on the page.
        package static var allCases: [Metric] {
            ResultColumns.charted.compactMap { column in column.chart.map { Metric(column: column.name, unit: column.unit, chart: $0) } }
        }

        /// The metric whose charts are named `slug` (`time`, `fetches`, `memory`, `reader-p99`).
        package init?(slug: String) {
            guard let metric = Self.allCases.first(where: { $0.rawValue == slug }) else { return nil }
            self = metric
        }

        private init(column: String, unit: ResultColumn.Unit, chart: ResultColumn.Chart) {
            self.column = column
            self.unit = unit
            self.chart = chart
        }

        package var rawValue: String { chart.slug }
        package var heading: String { chart.heading }

        package static func == (lhs: Metric, rhs: Metric) -> Bool { lhs.column == rhs.column }
        package func hash(into hasher: inout Hasher) { hasher.combine(column) }
    }

    package struct Chart: Sendable {
        package let metric: Metric
        /// A file name unique in the report, such as chat-time.svg or chat-time-batch-100.svg.
        package let fileName: String
        /// A standalone SVG document (it carries its xmlns), also fit to inline in HTML.
        package let svg: String
    }

    package struct Section: Sendable {
        package let title: String
        package let charts: [Chart]
        /// Why a metric has no chart, one sentence each.
        package let notes: [Metric: String]
        /// Runs left out or worth a second look.
        package let warnings: [String]

        package func charts(_ metric: Metric) -> [Chart] { charts.filter { $0.metric == metric } }
    }

    /// The sentence standing in for the reader chart when no run was probed.
    package static let unprobedNote =
        "No run in these CSVs was probed, so there is no reader latency to show: run bench run with --probe-reads HZ to measure how long a reader waits while the import writes."
    /// A frame at 60 Hz: a reader's p99 above it is a visible stall.
    package static let frameSeconds = 0.016

    package let input: ReportInput
    /// What the page opens with: the fastest valid strategy per payload and setting.
    package let answer: AnswerReport
    package let sections: [Section]

    package init(_ input: ReportInput) {
        self.input = input
        let palette = ChartPalette(strategies: input.runs.map(\.strategy))
        answer = AnswerReport(runs: input.runs, order: palette.sorted(input.runs.map(\.strategy)), palette: palette)
        let groups = Dictionary(grouping: input.runs) { GroupKey(scenario: $0.scenario, preload: $0.preload) }
        var usedSlugs: Set<String> = []
        sections = groups.keys.sorted().compactMap { key in
            guard let runs = groups[key] else { return nil }
            var slug = Self.slug(key.preload.isEmpty ? key.scenario : "\(key.scenario)-preload-\(key.preload)", fallback: "scenario")
            if usedSlugs.contains(slug) {
                var number = 2
                while usedSlugs.contains("\(slug)-\(number)") { number += 1 }
                slug += "-\(number)"
            }
            usedSlugs.insert(slug)
            return SectionBuilder(key: key, slug: slug, runs: runs, palette: palette).build()
        }
    }

    /// Every chart of the report, in order.
    package var charts: [Chart] { sections.flatMap(\.charts) }

    struct GroupKey: Hashable, Comparable {
        let scenario: String
        let preload: String

        static func < (lhs: GroupKey, rhs: GroupKey) -> Bool { (lhs.scenario, lhs.preload) < (rhs.scenario, rhs.preload) }

        var title: String { preload.isEmpty ? scenario : "\(scenario), refresh over \(preload)" }
    }

    /// A file-name-safe form: lower case letters, digits, dots and dashes.
    static func slug(_ text: String, fallback: String) -> String {
        var slug = ""
        for character in text.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber || character == ".") {
                slug.append(character)
            } else if !slug.hasSuffix("-") {
                slug.append("-")
            }
        }
        while slug.hasPrefix("-") || slug.hasPrefix(".") { slug.removeFirst() }
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug.isEmpty ? fallback : slug
    }
}

/// The settings a panel holds fixed; ordered as a reader expects (100 before 1000 before all, wal before delete).
struct RunSettings: Hashable, Comparable {
    var batchSize: String
    var journal: String
    var synchronous: String
    /// Empty for an unprobed run.
    var probeHz: String
    /// The `--pragma` settings (`temp_store=memory;cache_size=-65536`): runs under other settings are other panels.
    var pragmas: String
    /// `on` or `off` (`--decode-ahead`): runs decoded ahead are other panels.
    var decodeAhead: String

    init(_ run: ResultsRow) {
        batchSize = run.batchSize
        journal = run.journalMode
        synchronous = run.synchronous
        probeHz = run.probeHz
        pragmas = run.pragmas
        decodeAhead = run.decodeAhead
    }

    private var sortKey: [String] {
        [
            Self.batchKey(batchSize), Self.listedKey(journal, StoreSettings.Journal.allCases.map(\.rawValue)),
            Self.listedKey(synchronous, StoreSettings.Synchronous.allCases.map(\.rawValue)), Self.numberKey(probeHz), pragmas, decodeAhead,
        ]
    }

    static func < (lhs: RunSettings, rhs: RunSettings) -> Bool { lhs.sortKey.lexicographicallyPrecedes(rhs.sortKey) }

    /// Numbers by value, then `all` (one transaction) last, then anything else by name.
    static func batchKey(_ text: String) -> String {
        switch BatchSize(parsing: text) {
        case .occurrences(let count): return "0" + numberKey(String(count))
        case .all: return "1"
        case nil: return "2" + text
        }
    }

    static func numberKey(_ text: String) -> String {
        guard let value = Double(text) else { return "~" + text }
        return String(format: "%020.6f", value)
    }

    static func listedKey(_ text: String, _ order: [String]) -> String {
        order.firstIndex(of: text).map { String($0) } ?? "9" + text
    }
}

/// Builds one scenario's charts.
private struct SectionBuilder {
    let key: ChartReport.GroupKey
    let slug: String
    let runs: [ResultsRow]
    let palette: ChartPalette

    /// The runs charted: a resumed run's counts and times cover only part of the import.
    var charted: [ResultsRow] { runs.filter { $0.resumedFrom.isEmpty } }

    func build() -> ChartReport.Section {
        var charts: [ChartReport.Chart] = []
        var notes: [ChartReport.Metric: String] = [:]
        for metric in ChartReport.Metric.allCases {
            let built: [ChartReport.Chart]
            switch metric.chart.kind {
            case .growth: built = growthCharts(metric)
            case .barsByScale: built = barCharts(metric)
            case .byBatchSize: built = batchSizeCharts(metric)
            }
            if built.isEmpty { notes[metric] = note(for: metric) }
            charts += built
        }
        var warnings: [String] = []
        let resumed = runs.count - charted.count
        if resumed > 0 {
            warnings.append(
                "\(resumed) resumed run\(resumed == 1 ? " is" : "s are") left out: a resumed import's counts and times cover only the batches after its checkpoint."
            )
        }
        let invalid = charted.filter { $0.valid == false }.count
        if invalid > 0 {
            warnings.append(
                "\(invalid) run\(invalid == 1 ? "" : "s") wrote data that differs from the payload's (valid = false); they are drawn all the same.")
        }
        return ChartReport.Section(title: key.title, charts: charts, notes: notes, warnings: warnings)
    }

    private func note(for metric: ChartReport.Metric) -> String {
        guard charted.contains(where: { $0.value(metric.column) != nil }) else {
            return metric.chart.missingNote ?? "No run has a \(metric.column): these CSVs predate the column or left it empty."
        }
        let strategies = palette.sorted(charted.map(\.strategy)).joined(separator: ", ")
        let tail = metric.chart.kind == .growth ? "so there is nothing to draw on a log axis" : "so there is nothing to draw"
        return "\(metric.chart.zeroNote ?? "No run has a positive \(metric.column)") (\(strategies)), \(tail)."
    }

    // MARK: Panels

    /// Runs split by `key`, in the key's order.
    private func panels<Key: Hashable & Comparable>(_ runs: [ResultsRow], by key: (ResultsRow) -> Key) -> [(Key, [ResultsRow])] {
        Dictionary(grouping: runs, by: key).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    private func describe(_ settings: RunSettings, _ runs: [ResultsRow]) -> String {
        var parts: [String] = []
        if !settings.batchSize.isEmpty {
            parts.append(settings.batchSize == "all" ? "batch all (one transaction)" : "batch \(settings.batchSize)")
        }
        if !settings.journal.isEmpty { parts.append("journal \(settings.journal)") }
        if !settings.synchronous.isEmpty { parts.append("synchronous \(settings.synchronous)") }
        if !settings.pragmas.isEmpty { parts.append(settings.pragmas.replacingOccurrences(of: ";", with: " · ")) }
        if settings.decodeAhead == "on" { parts.append("decoding ahead") }
        parts += Self.probeNote(runs).map { [$0] } ?? []
        return parts.joined(separator: " · ")
    }

    /// "reads probed at 60 Hz" when every run was probed at one rate, "reads probed in 4 of 9 runs" when not all were.
    static func probeNote(_ runs: [ResultsRow]) -> String? {
        let rates = Set(runs.map(\.probeHz))
        let probed = runs.filter { !$0.probeHz.isEmpty }.count
        guard probed > 0 else { return nil }
        if probed == runs.count, rates.count == 1, let rate = rates.first { return "reads probed at \(rate) Hz" }
        return "reads probed in \(probed) of \(runs.count) runs"
    }

    /// A file-name suffix naming the settings that differ between panels.
    private func suffix(_ settings: RunSettings, among all: [RunSettings]) -> String {
        var parts: [String] = []
        if Set(all.map(\.batchSize)).count > 1 { parts.append("batch-\(settings.batchSize)") }
        if Set(all.map(\.journal)).count > 1 { parts.append(settings.journal.isEmpty ? "journal-unknown" : settings.journal) }
        if Set(all.map(\.synchronous)).count > 1 { parts.append("sync-\(settings.synchronous.isEmpty ? "unknown" : settings.synchronous)") }
        if Set(all.map(\.probeHz)).count > 1 { parts.append(settings.probeHz.isEmpty ? "unprobed" : "probe-\(settings.probeHz)hz") }
        if Set(all.map(\.pragmas)).count > 1 { parts.append(settings.pragmas.isEmpty ? "no-pragmas" : settings.pragmas) }
        if Set(all.map(\.decodeAhead)).count > 1 { parts.append("decode-ahead-\(settings.decodeAhead)") }
        let joined = parts.joined(separator: "-")
        return joined.isEmpty ? "" : "-" + ChartReport.slug(joined, fallback: "panel")
    }

    private func fileName(_ metric: ChartReport.Metric, _ suffix: String) -> String { "\(slug)-\(metric.rawValue)\(suffix).svg" }

    /// What the points are folded from: "one run per point" or "median of 3 runs, whiskers min–max".
    private func repetitionNote(_ counts: [Int]) -> String {
        guard let most = counts.max(), most > 1 else { return "one run per point" }
        let fewest = counts.min() ?? most
        return "median of \(fewest == most ? "\(most)" : "\(fewest)–\(most)") runs per point, whiskers min–max"
    }

    // MARK: Time and fetches

    private struct Folded {
        var median: Double
        var low: Double
        var high: Double
        var count: Int
    }

    private func fold(_ values: [Double]) -> Folded? {
        guard let low = values.min(), let high = values.max() else { return nil }
        return Folded(median: SummaryTable.median(values), low: low, high: high, count: values.count)
    }

    private func growthCharts(_ metric: ChartReport.Metric) -> [ChartReport.Chart] {
        let value: (ResultsRow) -> Double? = { $0.value(metric.column) }
        let scales = Set(charted.map(\.scale)).sorted { $0.factor < $1.factor }
        // Occurrences are exact and the same for every strategy at a scale; the factor stands in when a CSV lacks them.
        var occurrences: [RunSize: Double] = [:]
        for scale in scales {
            let records = charted.filter { $0.scale == scale }.compactMap(\.records).filter { $0 > 0 }
            if !records.isEmpty { occurrences[scale] = SummaryTable.median(records) }
        }
        let byRecords = occurrences.count == scales.count
        func x(_ scale: RunSize) -> Double { byRecords ? occurrences[scale] ?? scale.factor : scale.factor }

        let panelList = panels(charted) { RunSettings($0) }
        let settingsList = panelList.map(\.0)
        struct Line {
            var strategy: String
            var points: [(RunSize, Folded)]
            var recorded: Bool
        }
        let panelLines: [(RunSettings, [ResultsRow], [Line])] = panelList.map { settings, runs in
            let byStrategy = Dictionary(grouping: runs, by: \.strategy)
            let lines = palette.sorted(byStrategy.keys).map { strategy in
                let strategyRuns = byStrategy[strategy] ?? []
                let points = scales.compactMap { scale -> (RunSize, Folded)? in
                    let values = strategyRuns.filter { $0.scale == scale }.compactMap(value).filter { $0 > 0 }
                    return fold(values).map { (scale, $0) }
                }
                return Line(strategy: strategy, points: points, recorded: strategyRuns.contains { value($0) != nil })
            }
            return (settings, runs, lines)
        }
        let allPoints = panelLines.flatMap { $0.2.flatMap(\.points) }
        guard !allPoints.isEmpty,
            let xAxis = ChartAxis.logarithmic(covering: allPoints.map { x($0.0) }),
            let yAxis = ChartAxis.logarithmic(covering: allPoints.flatMap { [$0.1.low, $0.1.high] })
        else { return [] }

        let xTitle = byRecords ? "occurrences in the payload (log)" : "scale, multiple of the base load (log)"
        return panelLines.map { settings, runs, lines in
            let series = lines.filter { !$0.points.isEmpty }.map { line -> LineChart.Series in
                let exponent = GrowthTable.exponent(line.points.map { (x($0.0), $0.1.median) })
                let points = line.points.map { scale, folded in
                    LineChart.Point(
                        x: x(scale), y: folded.median, low: folded.low, high: folded.high,
                        tooltip: tooltip(line.strategy, scale: scale, x: byRecords ? occurrences[scale] : nil, folded: folded, metric: metric))
                }
                return LineChart.Series(
                    strategy: line.strategy, label: exponent.map { "\(line.strategy) (k = \(String(format: "%.2f", $0)))" } ?? line.strategy,
                    points: points)
            }
            let absent = lines.filter(\.points.isEmpty).map { line in
                (strategy: line.strategy, label: "\(line.strategy): " + (line.recorded ? metric.chart.zeroLabel ?? "not recorded" : "not recorded"))
            }
            let counts = lines.flatMap { $0.points.map(\.1.count) }
            let subtitle = [
                describe(settings, runs),
                repetitionNote(counts)
                    + (scales.count > 1 ? "; k: slope of log \(metric.rawValue) on log \(byRecords ? "occurrences" : "scale")" : ""),
            ].filter { !$0.isEmpty }
            let chart = LineChart(
                kind: metric.rawValue, title: "\(key.title): \(metric.chart.what) by payload size", subtitle: subtitle, xTitle: xTitle,
                yTitle: "\(metric.chart.axisTitle) (log)", xAxis: .numeric(xAxis), yAxis: yAxis,
                series: series, absent: absent, palette: palette)
            return ChartReport.Chart(metric: metric, fileName: fileName(metric, suffix(settings, among: settingsList)), svg: chart.render())
        }
    }

    private func tooltip(_ strategy: String, scale: RunSize, x occurrences: Double?, folded: Folded, metric: ChartReport.Metric) -> String {
        func show(_ value: Double) -> String {
            switch metric.unit {
            case .seconds: return SummaryTable.seconds(value) + " s"
            case .bytes: return String(format: "%.1f MB", value)
            default: return SummaryTable.count(Int(value.rounded())) + " " + metric.chart.axisTitle
            }
        }
        var text = "\(strategy), \(scale)"
        if let occurrences { text += " (\(SummaryTable.count(Int(occurrences))) occurrences)" }
        text += ": \(show(folded.median))"
        if folded.count > 1 { text += ", median of \(folded.count) (\(show(folded.low)) to \(show(folded.high)))" }
        return text
    }

    // MARK: Bars by scale

    /// Bytes are drawn in MB.
    private func barCharts(_ metric: ChartReport.Metric) -> [ChartReport.Chart] {
        let scales = Set(charted.map(\.scale)).sorted { $0.factor < $1.factor }
        let panelList = panels(charted) { RunSettings($0) }
        let settingsList = panelList.map(\.0)
        let divisor = metric.unit == .bytes ? 1_048_576.0 : 1
        let panelSeries: [(RunSettings, [ResultsRow], [BarChart.Series], [Int])] = panelList.map { settings, runs in
            let byStrategy = Dictionary(grouping: runs, by: \.strategy)
            var counts: [Int] = []
            let series = palette.sorted(byStrategy.keys).compactMap { strategy -> BarChart.Series? in
                let strategyRuns = byStrategy[strategy] ?? []
                let bars = scales.enumerated().compactMap { index, scale -> BarChart.Bar? in
                    let values = strategyRuns.filter { $0.scale == scale }.compactMap { $0.value(metric.column) }.filter { $0 > 0 }.map {
                        $0 / divisor
                    }
                    guard let folded = fold(values) else { return nil }
                    counts.append(folded.count)
                    return BarChart.Bar(
                        category: index, value: folded.median, low: folded.low, high: folded.high,
                        tooltip: tooltip(strategy, scale: scale, x: nil, folded: folded, metric: metric))
                }
                return bars.isEmpty ? nil : BarChart.Series(strategy: strategy, label: strategy, bars: bars)
            }
            return (settings, runs, series, counts)
        }
        let values = panelSeries.flatMap { $0.2.flatMap { $0.bars.flatMap { [$0.value, $0.high] } } }
        guard !values.isEmpty else { return [] }
        let yAxis = ChartAxis.linear(covering: values)
        return panelSeries.map { settings, runs, series, counts in
            let chart = BarChart(
                kind: metric.rawValue, title: "\(key.title): \(metric.chart.what) by payload size",
                subtitle: [describe(settings, runs), repetitionNote(counts) + (metric.chart.detail.map { "; \($0)" } ?? "")].filter { !$0.isEmpty },
                xTitle: scales.contains(where: \.isRecorded) ? "payload" : "scale, multiple of the base load", yTitle: metric.chart.axisTitle,
                categories: scales.map(\.description),
                yAxis: yAxis, series: series, palette: palette)
            return ChartReport.Chart(metric: metric, fileName: fileName(metric, suffix(settings, among: settingsList)), svg: chart.render())
        }
    }

    // MARK: By batch size

    private struct ReaderPanel: Hashable, Comparable {
        var scale: RunSize
        var synchronous: String
        var probeHz: String
        var pragmas: String
        var decodeAhead: String

        static func < (lhs: ReaderPanel, rhs: ReaderPanel) -> Bool {
            if lhs.scale.factor != rhs.scale.factor { return lhs.scale.factor < rhs.scale.factor }
            let left = [
                RunSettings.listedKey(lhs.synchronous, StoreSettings.Synchronous.allCases.map(\.rawValue)), RunSettings.numberKey(lhs.probeHz),
                lhs.pragmas, lhs.decodeAhead,
            ]
            let right = [
                RunSettings.listedKey(rhs.synchronous, StoreSettings.Synchronous.allCases.map(\.rawValue)), RunSettings.numberKey(rhs.probeHz),
                rhs.pragmas, rhs.decodeAhead,
            ]
            return left.lexicographicallyPrecedes(right)
        }
    }

    /// Seconds are drawn in milliseconds, against one 60 Hz frame.
    private func batchSizeCharts(_ metric: ChartReport.Metric) -> [ChartReport.Chart] {
        let probed = charted.filter { ($0.value(metric.column) ?? -1) >= 0 }
        guard !probed.isEmpty else { return [] }
        let batches = Set(probed.map(\.batchSize)).sorted { RunSettings.batchKey($0) < RunSettings.batchKey($1) }
        let journals = Set(probed.map(\.journalMode)).sorted {
            RunSettings.listedKey($0, StoreSettings.Journal.allCases.map(\.rawValue))
                < RunSettings.listedKey($1, StoreSettings.Journal.allCases.map(\.rawValue))
        }
        let splitByJournal = journals.count > 1
        let panelList = panels(probed) {
            ReaderPanel(
                scale: $0.scale, synchronous: $0.synchronous, probeHz: $0.probeHz, pragmas: $0.pragmas, decodeAhead: $0.decodeAhead)
        }
        let milliseconds = 1000.0

        let panelSeries: [(ReaderPanel, [LineChart.Series], [Int])] = panelList.map { panel, runs in
            var counts: [Int] = []
            var series: [LineChart.Series] = []
            let byStrategy = Dictionary(grouping: runs, by: \.strategy)
            for strategy in palette.sorted(byStrategy.keys) {
                for journal in journals {
                    let lineRuns = (byStrategy[strategy] ?? []).filter { $0.journalMode == journal }
                    let points = batches.enumerated().compactMap { index, batch -> LineChart.Point? in
                        let values = lineRuns.filter { $0.batchSize == batch }.compactMap { $0.value(metric.column) }.map { $0 * milliseconds }
                        guard let folded = fold(values) else { return nil }
                        counts.append(folded.count)
                        var text =
                            "\(strategy)" + (journal.isEmpty ? "" : ", journal \(journal)")
                            + ", batch \(batch): \(metric.chart.what) \(String(format: "%.2f", folded.median)) ms"
                        if folded.count > 1 {
                            text += ", median of \(folded.count) (\(String(format: "%.2f", folded.low)) to \(String(format: "%.2f", folded.high)) ms)"
                        }
                        return LineChart.Point(x: Double(index), y: folded.median, low: folded.low, high: folded.high, tooltip: text)
                    }
                    guard !points.isEmpty else { continue }
                    series.append(
                        LineChart.Series(
                            strategy: strategy, label: strategy,
                            points: points, dashed: splitByJournal && journal != journals.first,
                            attributes: journal.isEmpty ? [] : [("data-journal", journal)]))
                }
            }
            return (panel, series, counts)
        }
        let values = panelSeries.flatMap { $0.1.flatMap { $0.points.flatMap { [$0.low, $0.high] } } } + [ChartReport.frameSeconds * milliseconds]
        // Latency spans orders of magnitude once a rollback journal blocks readers; a log axis keeps the fast ones visible.
        let positive = values.allSatisfy { $0 > 0 }
        let spread = (values.max() ?? 1) / max(values.min() ?? 1, .leastNonzeroMagnitude)
        let logarithmic = positive && spread >= 20
        let yAxis = (logarithmic ? ChartAxis.logarithmic(covering: values) : nil) ?? ChartAxis.linear(covering: values)
        let panelKeys = panelList.map(\.0)
        return panelSeries.map { panel, series, counts in
            var suffixParts: [String] = []
            if Set(panelKeys.map(\.scale)).count > 1 { suffixParts.append(panel.scale.description) }
            if Set(panelKeys.map(\.synchronous)).count > 1 { suffixParts.append("sync-\(panel.synchronous)") }
            if Set(panelKeys.map(\.probeHz)).count > 1 { suffixParts.append("probe-\(panel.probeHz)hz") }
            if Set(panelKeys.map(\.pragmas)).count > 1 { suffixParts.append(panel.pragmas.isEmpty ? "no-pragmas" : panel.pragmas) }
            if Set(panelKeys.map(\.decodeAhead)).count > 1 { suffixParts.append("decode-ahead-\(panel.decodeAhead)") }
            let suffix = suffixParts.isEmpty ? "" : "-" + ChartReport.slug(suffixParts.joined(separator: "-"), fallback: "panel")
            var context = ["scale \(panel.scale)"]
            if !splitByJournal, let journal = journals.first, !journal.isEmpty { context.append("journal \(journal)") }
            if !panel.synchronous.isEmpty { context.append("synchronous \(panel.synchronous)") }
            if !panel.probeHz.isEmpty { context.append("reads probed at \(panel.probeHz) Hz") }
            if !panel.pragmas.isEmpty { context.append(panel.pragmas.replacingOccurrences(of: ";", with: " · ")) }
            if panel.decodeAhead == "on" { context.append("decoding ahead") }
            let chart = LineChart(
                kind: metric.rawValue, title: "\(key.title): \(metric.chart.what) by batch size",
                subtitle: [context.joined(separator: " · "), repetitionNote(counts)],
                xTitle: "batch size, occurrences per transaction (all = one)",
                yTitle: metric.chart.axisTitle + (yAxis.kind == .logarithmic ? " (log)" : ""),
                xAxis: .categories(batches), yAxis: yAxis, series: series,
                styles: splitByJournal
                    ? journals.enumerated().map { (label: "\($0.element.isEmpty ? "unknown" : $0.element) journal", dashed: $0.offset > 0) } : [],
                reference: LineChart.ReferenceLine(value: ChartReport.frameSeconds * milliseconds, label: "one frame (16 ms)"), palette: palette)
            return ChartReport.Chart(metric: metric, fileName: fileName(metric, suffix), svg: chart.render())
        }
    }
}

extension ChartReport {
    /// Writes each chart, the answer's first, as a standalone SVG file into `directory` (created if missing); returns the paths.
    package func writeSVGFiles(into directory: String) throws -> [String] {
        let url = URL(fileURLWithPath: directory, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let files = answer.charts.map { ($0.fileName, $0.svg) } + charts.map { ($0.fileName, $0.svg) }
        return try files.map { name, svg in
            let file = url.appendingPathComponent(name)
            try Data(svg.utf8).write(to: file, options: .atomic)
            return file.path
        }
    }
}
