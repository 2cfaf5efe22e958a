import Foundation
import ImportBenchCore
import Testing

@testable import ImportBenchReport

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A results CSV written by hand: every column of the contract, or only those an older version had.
private struct SyntheticCSV {
    /// Scale label and its occurrences: occurrences double with the scale, so exponents are exact.
    static let scales = [("1x", 1_000.0), ("2x", 2_000.0), ("4x", 4_000.0)]

    var rows: [[String: String]] = []

    /// naive: time = 2e-7 * records^2 (k = 2), 2 fetches per record; prewarm: linear time, records/100
    /// fetches; upsert: no fetches at all. Three repetitions at 0.9, 1 and 1.1 times the value, so
    /// the median is the value itself. Every run probed at 60 Hz unless `probed` is false.
    static func sweep(
        scenario: String = "chat", strategies: [String] = ["naive", "prewarm", "upsert"], batchSizes: [String] = ["100", "all"],
        journals: [String] = ["wal", "delete"], probed: Bool = true
    ) -> SyntheticCSV {
        var csv = SyntheticCSV()
        for (scale, records) in scales {
            for batch in batchSizes {
                for journal in journals {
                    for (repetition, factor) in [0.9, 1.0, 1.1].enumerated() {
                        for strategy in strategies {
                            let wall: Double
                            let fetches: Double
                            switch strategy {
                            case "naive": (wall, fetches) = (2e-7 * records * records, 2 * records)
                            case "prewarm": (wall, fetches) = (1e-4 * records, records / 100)
                            default: (wall, fetches) = (5e-5 * records, 0)
                            }
                            let p99 = probed ? (journal == "wal" ? 0.002 : 0.040) * (batch == "all" ? 10 : 1) * factor : nil
                            csv.rows.append([
                                "scenario": scenario, "strategy": strategy, "scale": scale, "seed": "1", "preload": "",
                                "batch_size": batch, "repetition": String(repetition + 1), "records": String(Int(records)),
                                "fetch_count": String(Int(fetches)), "wall_s": String(format: "%.6f", wall * factor),
                                "peak_rss_bytes": String(Int((30 + records / 100) * 1_048_576 * factor)), "valid": "true",
                                "sqlite_version": "3.40.1", "bench_version": "0.1.0", "swift_version": "6.0.3",
                                "cpu_model": "Test CPU", "cpu_count": "8", "os": "Debian GNU/Linux 12 (bookworm)",
                                "sqlite_compile_options": "THREADSAFE=1 ENABLE_FTS5", "csv_version": "3", "journal_mode": journal,
                                "synchronous": "normal", "probe_reads_hz": p99 == nil ? "" : "60",
                                "reader_p99_s": p99.map { String(format: "%.6f", $0) } ?? "",
                            ])
                        }
                    }
                }
            }
        }
        return csv
    }

    /// Counts the sweep leaves out are 0, the digest a constant; `csv_version` is the newest whose
    /// columns are all there, as bench would have written it.
    func text(columns: [String] = ResultColumns.names) -> String {
        let version =
            (1...ResultColumns.version).last { version in
                ResultColumns.columns.allSatisfy { $0.since > version || columns.contains($0.name) }
            } ?? 1
        var defaults: [String: String] = ["csv_version": String(version), "digest": "00000000deadbeef", "valid": "true"]
        for column in ResultColumns.columns where column.requiresValue && column.unit.isNumeric { defaults[column.name] = "0" }
        return CSVWriter.record(columns)
            + rows.map { row in
                CSVWriter.record(
                    columns.map { name in
                        if name == "csv_version" { return String(version) }
                        return row[name] ?? defaults[name] ?? ""
                    })
            }.joined()
    }

    /// The columns of csv_version 2 (up to synchronous) and 1 (up to csv_version).
    static func columns(version: Int) -> [String] {
        let last = version == 1 ? "csv_version" : "synchronous"
        guard let end = ResultColumns.names.firstIndex(of: last) else { return ResultColumns.names }
        return Array(ResultColumns.names[...end])
    }
}

/// The metrics' `<svg ...>...</svg>` documents inside a page, in order; the answer's charts above
/// them (multiples of the ceiling and wall times across a sweep) are AnswerReportTests'.
private func svgDocuments(in html: String) -> [String] {
    html.components(separatedBy: "<svg ").dropFirst().compactMap { part in
        part.range(of: "</svg>").map { "<svg " + part[..<$0.upperBound] }
    }.filter { !AnswerChart.Measure.allCases.map(\.rawValue).contains(chartKind($0) ?? "") }
}

private func occurrences(of needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
}

private func chartKind(_ svg: String) -> String? {
    guard let start = svg.range(of: "data-chart=\""), let end = svg[start.upperBound...].firstIndex(of: "\"") else { return nil }
    return String(svg[start.upperBound..<end])
}

/// Whether an XML parser accepts the text: escaping mistakes and unbalanced tags fail here.
private func isWellFormedXML(_ text: String) -> Bool {
    XMLParser(data: Data(text.utf8)).parse()
}

@Suite("bench report charts")
struct ReportChartTests {
    private func render(_ csv: String, name: String = "results.csv") throws -> (html: String, report: ChartReport) {
        let folder = try TemporaryFolder()
        let report = ChartReport(try ReportInput(paths: [try folder.write(csv, to: name)]))
        return (HTMLReport.render(report), report)
    }

    @Test("a sweep gives one chart per metric and panel, each well-formed with titled axes")
    func structure() throws {
        let (html, report) = try render(SyntheticCSV.sweep().text())
        let svgs = svgDocuments(in: html)
        // Time, fetches and memory: a panel per batch size (100, all) and journal (wal, delete); reader p99: one per scale.
        #expect(svgs.count == 4 * 3 + SyntheticCSV.scales.count)
        #expect(svgs.count == report.charts.count)
        #expect(
            svgs.map(chartKind) == Array(repeating: "time", count: 4) + Array(repeating: "fetches", count: 4)
                + Array(repeating: "memory", count: 4) + Array(repeating: "reader-p99", count: SyntheticCSV.scales.count))
        for svg in svgs {
            #expect(isWellFormedXML(svg), "not well-formed: \(svg.prefix(200))")
            #expect(occurrences(of: "class=\"axis-label\"", in: svg) == 2)
        }
        let titles: [String: [String]] = [
            "time": ["wall time, s (log)", "occurrences in the payload (log)"],
            "fetches": ["fetches (log)", "occurrences in the payload (log)"],
            "memory": ["peak RSS, MB", "scale, multiple of the base load"],
            "reader-p99": ["reader p99, ms (log)", "batch size, occurrences per transaction (all = one)"],
        ]
        for svg in svgs {
            for title in titles[chartKind(svg) ?? ""] ?? [] { #expect(svg.contains(">\(title)</text>"), "\(chartKind(svg) ?? "?") lacks \(title)") }
        }
        #expect(
            report.charts.map(\.fileName).prefix(4) == [
                "chat-time-batch-100-wal.svg", "chat-time-batch-100-delete.svg", "chat-time-batch-all-wal.svg", "chat-time-batch-all-delete.svg",
            ])
    }

    @Test("exactly one series per strategy in every chart; per strategy and journal in the reader chart")
    func seriesPerStrategy() throws {
        let (html, _) = try render(SyntheticCSV.sweep().text())
        for svg in svgDocuments(in: html) {
            switch chartKind(svg) {
            case "fetches":
                #expect(occurrences(of: "class=\"series\" data-strategy=\"naive\"", in: svg) == 1)
                #expect(occurrences(of: "class=\"series\" data-strategy=\"prewarm\"", in: svg) == 1)
                #expect(occurrences(of: "class=\"series\" data-strategy=\"upsert\"", in: svg) == 0)
            case "reader-p99":
                for strategy in ["naive", "prewarm", "upsert"] {
                    for journal in ["wal", "delete"] {
                        #expect(occurrences(of: "class=\"series\" data-strategy=\"\(strategy)\" data-journal=\"\(journal)\"", in: svg) == 1)
                    }
                }
                #expect(svg.contains(">one frame (16 ms)</text>"))
                #expect(svg.contains("class=\"reference\""))
            default:
                for strategy in ["naive", "prewarm", "upsert"] {
                    #expect(occurrences(of: "class=\"series\" data-strategy=\"\(strategy)\"", in: svg) == 1)
                }
            }
        }
    }

    @Test("the legend shows the fitted exponent: time = c * occurrences^2 reads k = 2.00")
    func exponentInLegend() throws {
        let (_, report) = try render(SyntheticCSV.sweep().text())
        let time = try #require(report.charts.first { $0.metric == .time })
        #expect(time.svg.contains(">naive (k = 2.00)</text>"))
        #expect(time.svg.contains(">prewarm (k = 1.00)</text>"))
        let fetches = try #require(report.charts.first { $0.metric == .fetches })
        #expect(fetches.svg.contains(">naive (k = 1.00)</text>"))
    }

    @Test("a strategy without a fetch at any scale is listed as such, not dropped")
    func zeroFetches() throws {
        let (_, report) = try render(SyntheticCSV.sweep().text())
        for chart in report.charts where chart.metric == .fetches {
            #expect(chart.svg.contains(">upsert: no fetches</text>"))
        }
        for chart in report.charts where chart.metric == .time {
            #expect(!chart.svg.contains("no fetches"))
        }
        let (html, fetchless) = try render(SyntheticCSV.sweep(strategies: ["upsert"]).text())
        #expect(fetchless.charts.filter { $0.metric == .fetches }.isEmpty)
        #expect(fetchless.sections.first?.notes[.fetches] == "No run executed a fetch (upsert), so there is nothing to draw on a log axis.")
        #expect(html.contains("No run executed a fetch (upsert)"))
    }

    @Test("points are medians of the repetitions, with a min-max whisker")
    func mediansAndWhiskers() throws {
        let (_, report) = try render(SyntheticCSV.sweep().text())
        let time = try #require(report.charts.first { $0.metric == .time })
        // naive at 4x: 2e-7 * 4000^2 = 3.2 s, repetitions 2.88 and 3.52 around it.
        #expect(time.svg.contains("naive, 4x (4,000 occurrences): 3.200 s, median of 3 (2.880 s to 3.520 s)"))
        #expect(occurrences(of: "class=\"whisker\"", in: time.svg) == 9)
    }

    @Test("without probe data: the --probe-reads sentence and no reader chart")
    func unprobed() throws {
        let (html, report) = try render(SyntheticCSV.sweep(probed: false).text())
        #expect(html.contains("--probe-reads HZ"))
        #expect(!html.contains("data-chart=\"reader-p99\""))
        #expect(report.sections.first?.notes[.readerP99] == ChartReport.unprobedNote)
        #expect(svgDocuments(in: html).count == 12)
    }

    @Test("a CSV of an older version, without the later columns, still renders", arguments: [1, 2])
    func olderVersions(version: Int) throws {
        let columns = SyntheticCSV.columns(version: version)
        #expect(!columns.contains("reader_p99_s"))
        let (html, report) = try render(SyntheticCSV.sweep(journals: [""], probed: false).text(columns: columns))
        // Without journal columns the only varying setting is the batch size: two panels per metric.
        #expect(report.charts.map(\.metric) == [.time, .time, .fetches, .fetches, .memory, .memory])
        #expect(report.charts.first?.fileName == "chat-time-batch-100.svg")
        #expect(html.contains("--probe-reads HZ"))
        #expect(html.contains(">naive (k = 2.00)</text>"))
        if version == 1 { #expect(html.contains("<th scope=\"row\">journal / synchronous</th><td><span class=\"missing\">not recorded</span>")) }
    }

    @Test("a file without the required columns is refused, naming the file and each missing column")
    func missingColumns() throws {
        let folder = try TemporaryFolder()
        let columns = ResultColumns.names.filter { $0 != "wall_s" && $0 != "strategy" }
        let path = try folder.write(SyntheticCSV.sweep().text(columns: columns), to: "no-wall.csv")
        do {
            _ = try ReportInput(paths: [path])
            Issue.record("a CSV without wall_s was accepted")
        } catch {
            let message = String(describing: error)
            #expect(message.contains(path))
            #expect(message.contains("no column named strategy"))
        }
        // Named columns present, one of its version's missing.
        let noWall = try folder.write(SyntheticCSV.sweep().text(columns: ResultColumns.names.filter { $0 != "wall_s" }), to: "no-wall-only.csv")
        #expect { _ = try ReportInput(paths: [noWall]) } throws: { "\($0)".contains("as its rows say, found no column named wall_s") }
        #expect(throws: ResultsInputError.self) { _ = try ReportInput(paths: [folder.url.appendingPathComponent("absent.csv").path]) }
        let headerOnly = try folder.write(SyntheticCSV().text(), to: "empty.csv")
        #expect(throws: ResultsInputError.noRuns(paths: [headerOnly])) { _ = try ReportInput(paths: [headerOnly]) }
    }

    @Test("a value that is not a number names the file, line and column")
    func badValue() throws {
        let folder = try TemporaryFolder()
        var csv = SyntheticCSV.sweep()
        csv.rows[4]["wall_s"] = "fast"
        let path = try folder.write(csv.text(), to: "bad.csv")
        do {
            _ = try ReportInput(paths: [path])
            Issue.record("wall_s = fast was accepted")
        } catch {
            let message = String(describing: error)
            #expect(message.contains("bad.csv line 6, column wall_s"))
            #expect(message.contains("'fast'"))
        }
    }

    @Test("scenario and strategy names are escaped in every chart and in the page")
    func escaping() throws {
        let csv = SyntheticCSV.sweep(scenario: "chat <&> \"x\"", strategies: ["naive", "a<&>b"], batchSizes: ["all"], journals: ["wal"])
        let (html, report) = try render(csv.text())
        #expect(!html.contains("a<&>b"))
        #expect(!html.contains("chat <&>"))
        #expect(html.contains("a&lt;&amp;&gt;b"))
        #expect(html.contains("<h2>chat &lt;&amp;&gt; &quot;x&quot;</h2>"))
        for chart in report.charts {
            #expect(isWellFormedXML(chart.svg))
            #expect(chart.svg.contains("data-strategy=\"a&lt;&amp;&gt;b\""))
            #expect(chart.fileName.hasPrefix("chat-x-"))
        }
    }

    @Test("probed and unprobed runs are never folded into one point: a probed import is slower")
    func probedRunsApart() throws {
        var csv = SyntheticCSV.sweep(batchSizes: ["all"], journals: ["wal"], probed: false)
        csv.rows += SyntheticCSV.sweep(batchSizes: ["all"], journals: ["wal"]).rows
        let (_, report) = try render(csv.text())
        let time = report.charts.filter { $0.metric == .time }
        #expect(time.map(\.fileName) == ["chat-time-probe-60hz.svg", "chat-time-unprobed.svg"])
        // Each panel holds its own three repetitions per point, not six.
        for chart in time { #expect(chart.svg.contains("median of 3 runs per point")) }
    }

    /// One batch size's runs again for each value of the `setting` column.
    private static func sweep(setting column: String, to values: [String]) -> SyntheticCSV {
        let base = SyntheticCSV.sweep(batchSizes: ["all"], journals: ["wal"], probed: false)
        var csv = SyntheticCSV()
        for value in values {
            csv.rows += base.rows.map { row in
                var row = row
                row[column] = value
                return row
            }
        }
        return csv
    }

    @Test("runs under other --pragma settings are other panels, never folded into one point (issue 32, part 3)")
    func pragmaPanels() throws {
        let (html, report) = try render(Self.sweep(setting: "pragmas", to: ["temp_store=default", "temp_store=memory"]).text())
        let time = report.charts.filter { $0.metric == .time }
        #expect(time.map(\.fileName) == ["chat-time-temp-store-default.svg", "chat-time-temp-store-memory.svg"])
        for chart in time { #expect(chart.svg.contains("median of 3 runs per point")) }
        #expect(html.contains(">batch all (one transaction) · journal wal · synchronous normal · temp_store=memory</text>"))
    }

    @Test("runs decoded ahead are panels of their own, named so; a file older than the column reads as decoding in turn")
    func decodeAheadPanels() throws {
        let (html, report) = try render(Self.sweep(setting: "decode_ahead", to: ["", "on"]).text())
        let time = report.charts.filter { $0.metric == .time }
        #expect(time.map(\.fileName) == ["chat-time-decode-ahead-off.svg", "chat-time-decode-ahead-on.svg"])
        #expect(html.contains(">batch all (one transaction) · journal wal · synchronous normal · decoding ahead</text>"))
    }

    @Test("the same CSVs give the same bytes")
    func deterministic() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(SyntheticCSV.sweep().text(), to: "results.csv")
        let first = HTMLReport.render(ChartReport(try ReportInput(paths: [path])))
        let second = HTMLReport.render(ChartReport(try ReportInput(paths: [path])))
        #expect(first == second)
        #expect(first.contains("<code>\(path)</code>"))
    }

    @Test("svg format: one standalone file per chart, named after scenario and metric")
    func svgFiles() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(SyntheticCSV.sweep(batchSizes: ["all"], journals: ["wal"]).text(), to: "results.csv")
        let out = folder.url.appendingPathComponent("charts/nested").path
        let written = try ChartReport(try ReportInput(paths: [path])).writeSVGFiles(into: out)
        #expect(
            written.map { URL(fileURLWithPath: $0).lastPathComponent } == [
                "chat-time.svg", "chat-fetches.svg", "chat-memory.svg",
            ] + SyntheticCSV.scales.map { "chat-reader-p99-\($0.0).svg" })
        for file in written {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            #expect(text.hasPrefix("<svg"))
            #expect(text.contains("xmlns=\"http://www.w3.org/2000/svg\""))
            #expect(isWellFormedXML(text))
        }
    }

    @Test("scenarios and preloads are charted apart, each with its own set of charts")
    func groupsByScenario() throws {
        var csv = SyntheticCSV.sweep(batchSizes: ["all"], journals: ["wal"], probed: false)
        csv.rows += SyntheticCSV.sweep(scenario: "quakes", batchSizes: ["all"], journals: ["wal"], probed: false).rows.map {
            var row = $0
            row["preload"] = "overlap=0.5,changed=0.1"
            return row
        }
        let (_, report) = try render(csv.text())
        #expect(report.sections.map(\.title) == ["chat", "quakes, refresh over overlap=0.5,changed=0.1"])
        #expect(
            report.charts.map(\.fileName) == [
                "chat-time.svg", "chat-fetches.svg", "chat-memory.svg",
                "quakes-preload-overlap-0.5-changed-0.1-time.svg", "quakes-preload-overlap-0.5-changed-0.1-fetches.svg",
                "quakes-preload-overlap-0.5-changed-0.1-memory.svg",
            ])
    }

    @Test("a recorded payload's runs (scale recorded) are drawn, placed by their records and named so")
    func recordedRuns() throws {
        var csv = SyntheticCSV.sweep(batchSizes: ["all"], journals: ["wal"], probed: false)
        csv.rows = csv.rows.filter { $0["scale"] == "1x" }.map { row in
            var row = row
            row["scale"] = PayloadSource.recordedScale
            return row
        }
        let (html, report) = try render(csv.text())
        #expect(report.charts.contains { $0.metric == .memory })
        #expect(html.contains("recorded, 1,000 records"))
    }

    @Test("a resumed run is left out, and said to be")
    func resumedRuns() throws {
        var csv = SyntheticCSV.sweep(batchSizes: ["all"], journals: ["wal"], probed: false)
        // A resumed copy with a tiny time: counted in, it would pull naive's 1x median down and k away from 2.
        var resumed = csv.rows[0]
        resumed["resumed_from"] = "1/3"
        resumed["wall_s"] = "0.000001"
        csv.rows.append(resumed)
        let (html, report) = try render(csv.text())
        #expect(report.sections.first?.warnings.first?.hasPrefix("1 resumed run is left out") == true)
        #expect(html.contains("naive (k = 2.00)"))
    }

    @Test("strategies take colours in the order they ran, whatever their names, each its own")
    func coloursFollowTheRunOrder() {
        let names = StrategyCatalog.builtIn.knownNames + ["grdb-naive", "zeta"]
        let palette = ChartPalette(strategies: names + names.reversed())
        #expect(Set(names.map(palette.colour)).count == names.count)
        #expect(palette.colour("naive") == ChartPalette.knownColours[0])
        // zeta comes last: the spare colour after those the names before it took.
        let spare = (names.count - 1 - ChartPalette.knownColours.count) % ChartPalette.spareColours.count
        #expect(palette.colour("zeta") == ChartPalette.spareColours[spare])
        #expect(palette.sorted(["zeta", "prewarm", "grdb-naive", "naive"]) == ["naive", "prewarm", "grdb-naive", "zeta"])
    }
}

@Suite("chart axes")
struct ChartAxisTests {
    @Test("a log axis over less than two decades ticks at 1-2-5 steps")
    func logShortSpan() throws {
        let axis = try #require(ChartAxis.logarithmic(covering: [30_000, 242_000]))
        #expect(axis.ticks == [50_000, 100_000, 200_000])
        #expect(axis.tickLabels == ["50k", "100k", "200k"])
        #expect(axis.lower < 30_000 && axis.upper > 242_000)
    }

    @Test("a log axis over several decades ticks at powers of ten")
    func logLongSpan() throws {
        let axis = try #require(ChartAxis.logarithmic(covering: [0.004, 12]))
        #expect(axis.ticks == [0.01, 0.1, 1, 10])
        #expect(axis.tickLabels == ["0.01", "0.1", "1", "10"])
    }

    @Test("a single value still gets two ticks around it")
    func logSingleValue() throws {
        let axis = try #require(ChartAxis.logarithmic(covering: [1_000]))
        #expect(axis.ticks == [500, 1_000, 2_000])
    }

    @Test("a log axis needs a positive value")
    func logNothing() {
        #expect(ChartAxis.logarithmic(covering: [0, -1]) == nil)
    }

    @Test("a linear axis starts at zero at a nice step")
    func linear() {
        let axis = ChartAxis.linear(covering: [128, 1_210])
        #expect(axis.ticks == [0, 500, 1_000, 1_500])
        #expect(axis.tickLabels == ["0", "500", "1,000", "1,500"])
    }

    @Test("labels read plainly", arguments: [(0.005, "0.005"), (2.5, "2.5"), (1_000.0, "1,000"), (20.0, "20")])
    func labels(value: Double, text: String) {
        #expect(ChartAxis.label(value, compact: false) == text)
    }
}

/// The charted metrics by the names their files carry, as the tests speak of them.
extension ChartReport.Metric {
    static var time: Self { Self(slug: "time")! }
    static var fetches: Self { Self(slug: "fetches")! }
    static var memory: Self { Self(slug: "memory")! }
    static var readerP99: Self { Self(slug: "reader-p99")! }
}
