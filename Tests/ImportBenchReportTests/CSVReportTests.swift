import Foundation
import ImportBenchCore
import ImportBenchReport
import ImportBenchStore
import Testing

/// A strict RFC 4180 reader, so quoting is checked by reading back rather than by eye.
func parseCSV(_ text: String) -> [[String]] {
    var records: [[String]] = []
    var record: [String] = []
    var field = ""
    var quoted = false
    var characters = Array(text)[...]
    while let character = characters.popFirst() {
        if quoted {
            if character == "\"" {
                if characters.first == "\"" {
                    field.append("\"")
                    characters.removeFirst()
                } else {
                    quoted = false
                }
            } else {
                field.append(character)
            }
        } else if character == "\"" {
            quoted = true
        } else if character == "," {
            record.append(field)
            field = ""
        } else if character == "\r\n" || character == "\n" {
            record.append(field)
            field = ""
            records.append(record)
            record = []
        } else {
            field.append(character)
        }
    }
    if !field.isEmpty || !record.isEmpty {
        record.append(field)
        records.append(record)
    }
    return records
}

func sampleResult(strategy: String, wall: Double, repetition: Int = 1, scenario: String = "chat") -> RunResult {
    var measurement = ImportMeasurement()
    measurement.occurrences = 100
    measurement.wallSeconds = wall
    measurement.counts.fetches = strategy == "naive" ? 120 : 0
    measurement.peakRSSBytes = 50 * 1_048_576
    var result = RunResult(
        scenario: scenario, strategy: strategy, scale: "1x", seed: 1, batchSize: .default, repetition: repetition,
        measurement: measurement, uniqueRecords: 40, outcome: RefreshOutcome(inserted: 40), preload: nil, digest: "00000000deadbeef", valid: true,
        differences: [],
        sqliteVersion: "3.40.1", benchVersion: BenchVersion.current)
    result.role = StrategyCatalog.builtIn.strategy(named: strategy)?.role ?? .user
    return result
}

@Suite("CSV report")
struct CSVReportTests {
    @Test(
        "fields with commas, quotes and line breaks survive a round trip",
        arguments: [
            "plain", "a,b", "say \"hi\"", "two\nlines", "cr\rlf", "", "\"", ",\"\n",
        ])
    func quotingRoundTrip(text: String) {
        let line = CSVWriter.record(["x", text, "y"])
        #expect(parseCSV(line) == [["x", text, "y"]])
        #expect(line.hasSuffix("\r\n"))
    }

    @Test("the header is the versioned contract")
    func headerIsStable() {
        #expect(
            ResultColumns.names == [
                "scenario", "strategy", "scale", "seed", "preload", "batch_size", "repetition", "records", "unique_records",
                "objects_inserted", "objects_updated", "objects_unchanged",
                "fetch_count", "insert_count", "update_count", "upsert_count", "delete_count", "statement_count",
                "transaction_count", "rows_written", "vm_steps", "wall_s", "wall_ratio_to_ceiling", "cpu_user_s", "cpu_sys_s",
                "decode_s", "write_s", "commit_s", "peak_rss_bytes", "allocated_bytes", "peak_allocated_bytes",
                "malloc_count", "db_bytes", "digest", "valid", "sqlite_version", "bench_version", "swift_version", "cpu_model",
                "cpu_count", "os", "sqlite_compile_options", "csv_version", "resumed_from", "journal_mode", "synchronous",
                "longest_write_txn_s", "probe_reads_hz", "reader_queries", "reader_p50_s", "reader_p99_s", "reader_max_s",
                "reader_longest_blocked_s", "c_reference_s", "payload_bytes", "role", "c_reference_cpu_s",
                "build_config", "git_revision", "kernel", "cpu_signature", "instructions", "instructions_note", "counted_at", "pragmas",
                "decode_ahead", "c_reference_rows_per_insert", "c_reference_plain_s", "fallback",
            ])
        #expect(ResultColumns.version == 12)
    }

    @Test("one row per run; the ratio divides by the ceiling of the same repetition")
    func rowsAndRatio() throws {
        let results = [
            sampleResult(strategy: "naive", wall: 3, repetition: 1), sampleResult(strategy: "ceiling", wall: 0.5, repetition: 1),
            sampleResult(strategy: "naive", wall: 4, repetition: 2), sampleResult(strategy: "ceiling", wall: 2, repetition: 2),
        ]
        let rows = parseCSV(CSVReport.render(results))
        #expect(rows.count == 5)
        let header = rows[0]
        let ratio = try #require(header.firstIndex(of: "wall_ratio_to_ceiling"))
        let fetches = try #require(header.firstIndex(of: "fetch_count"))
        #expect(rows[1][ratio] == "6.000")
        #expect(rows[3][ratio] == "2.000")
        #expect(rows[1][fetches] == "120")
        #expect(rows.allSatisfy { $0.count == header.count })
    }

    @Test("in a --pragma sweep's file, each row's ratio divides by the ceiling of its own setting")
    func ratioPerPragmaSetting() throws {
        let walls: [(setting: String, naive: Double, ceiling: Double)] = [("default", 3, 0.5), ("memory", 2, 1.6)]
        var results: [RunResult] = []
        for (setting, naive, ceiling) in walls {
            let pragmas = [try StorePragma(name: .tempStore, value: setting)]
            for (strategy, wall) in [("naive", naive), ("ceiling", ceiling)] {
                var result = sampleResult(strategy: strategy, wall: wall)
                result.settings.pragmas = pragmas
                results.append(result)
            }
        }
        let rows = parseCSV(CSVReport.render(results))
        let ratio = try #require(rows.first?.firstIndex(of: "wall_ratio_to_ceiling"))
        #expect(rows[1][ratio] == String(format: "%.3f", walls[0].naive / walls[0].ceiling))
        #expect(rows[3][ratio] == String(format: "%.3f", walls[1].naive / walls[1].ceiling))
    }

    @Test("in a --decode-ahead off,on file, each row's ratio divides by the ceiling decoded the same way, and the column says which")
    func ratioPerDecoding() throws {
        let walls: [(ahead: Bool, naive: Double, ceiling: Double)] = [(false, 3, 0.5), (true, 2, 1.6)]
        var results: [RunResult] = []
        for (ahead, naive, ceiling) in walls {
            for (strategy, wall) in [("naive", naive), ("ceiling", ceiling)] {
                var result = sampleResult(strategy: strategy, wall: wall)
                result.decodeAhead = ahead
                results.append(result)
            }
        }
        let rows = parseCSV(CSVReport.render(results))
        let ratio = try #require(rows.first?.firstIndex(of: "wall_ratio_to_ceiling"))
        let column = try #require(rows.first?.firstIndex(of: "decode_ahead"))
        #expect(rows.dropFirst().map { $0[column] } == ["off", "off", "on", "on"])
        #expect(rows[1][ratio] == String(format: "%.3f", walls[0].naive / walls[0].ceiling))
        #expect(rows[3][ratio] == String(format: "%.3f", walls[1].naive / walls[1].ceiling))
    }
}

@Suite("Summary table")
struct SummaryTableTests {
    @Test("one row per strategy, the baseline first and the reference after the designs; median time and its multiple of the ceiling")
    func summary() {
        let results = [
            sampleResult(strategy: "ceiling", wall: 1), sampleResult(strategy: "naive", wall: 3),
            sampleResult(strategy: "ceiling", wall: 1, repetition: 2), sampleResult(strategy: "naive", wall: 5, repetition: 2),
            sampleResult(strategy: "ceiling", wall: 1, repetition: 3), sampleResult(strategy: "naive", wall: 4, repetition: 3),
        ]
        let lines = SummaryTable.render(results).split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines[2].hasPrefix("naive"))
        #expect(lines[3].hasPrefix("ceiling"))
        #expect(lines[2].contains("4.000 (3.000-5.000)"))
        #expect(SummaryTable.render([sampleResult(strategy: "naive", wall: 0.0029134)]).contains("0.002913"))
        #expect(SummaryTable.render([sampleResult(strategy: "naive", wall: 12.3456)]).contains("12.35"))
        #expect(lines[2].contains("4.00"))
        #expect(lines[2].contains("120"))
        #expect(lines[0].contains("x naive"))
        #expect(lines[3].contains("0.25"))  // the ceiling at a quarter of naive's median
    }

    @Test("a strategy's row names the fallback it took, and the CSV row carries it", arguments: [nil, "indexes kept"])
    func fallback(taken: String?) throws {
        var bulk = sampleResult(strategy: "bulk", wall: 2)
        bulk.measurement.fallback = taken
        let row = try #require(SummaryTable.render([bulk]).split(separator: "\n").last)
        #expect(row.hasPrefix(taken.map { "bulk (\($0))" } ?? "bulk "))
        let record = try #require(CSVReport.render([bulk]).split(separator: "\r\n").last)
        #expect(record.hasSuffix(",\(taken ?? "")"))
    }
}

@Suite("Markdown and JSON reports")
struct OtherFormatTests {
    @Test("the Markdown table has a header, an alignment row and one row per strategy")
    func markdown() {
        let text = SummaryTable.renderMarkdown([sampleResult(strategy: "naive", wall: 2), sampleResult(strategy: "ceiling", wall: 1)])
        let lines = text.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("| strategy | occurrences | objects |"))
        #expect(lines[1].hasPrefix("|---|---:|"))
        #expect(lines[2].hasPrefix("| naive | 100 |"))
    }

    @Test("JSON carries every CSV column with typed values")
    func json() throws {
        let text = try JSONReport.render([sampleResult(strategy: "naive", wall: 2), sampleResult(strategy: "ceiling", wall: 0.5)])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let runs = try #require(object["runs"] as? [[String: Any]])
        #expect(runs.count == 2)
        #expect(Set(runs[0].keys) == Set(ResultColumns.names))
        #expect(runs[0]["fetch_count"] as? Int == 120)
        #expect(runs[0]["valid"] as? Bool == true)
        #expect(runs[0]["batch_size"] as? String == "1000")
        #expect(runs[0]["wall_ratio_to_ceiling"] as? Double == 4)
        #expect(runs[0]["wall_s"] as? Double == 2)
        #expect(runs[0]["role"] as? String == "baseline")
        #expect(runs[1]["role"] as? String == "reference")
        // A text column stays a string where it looks numeric; an absent value is null, not "".
        #expect(runs[0]["digest"] as? String == "00000000deadbeef")
        #expect(runs[0]["reader_p99_s"] is NSNull)
        #expect(runs[0]["resumed_from"] is NSNull)
    }
}

@Suite("The results catalogue")
struct ResultCatalogueTests {
    @Test("each column is declared once; every metric says which way is better, and nothing else does")
    func declarations() {
        #expect(Set(ResultColumns.names).count == ResultColumns.columns.count)
        for column in ResultColumns.columns {
            let direction = column.judgement != .none && column.judgement != .correctness
            #expect(direction == (column.lowerIsBetter != nil), "\(column.name)")
            if direction { #expect(column.unit.isNumeric, "\(column.name) is judged by size, so it must be a number") }
        }
    }

    @Test("what compare counts exactly, and what it measures, follows the declarations")
    func judgements() {
        #expect(BaselineComparison.exactMetrics.contains("fetch_count"))
        #expect(!BaselineComparison.exactMetrics.contains("wall_s"))
        #expect(BaselineComparison.parseTolerance("wall_s=25%")?.1 == 0.25)
        #expect(BaselineComparison.parseTolerance("fetch_count=25%") == nil)
        // The payload's size describes the run: no tolerance can be set for it.
        #expect(BaselineComparison.parseTolerance("payload_bytes=10%") == nil)
        #expect(BaselineComparison.defaultTolerances == ["wall_s": 0.15, "peak_rss_bytes": 0.25, "allocated_bytes": 0.10, "instructions": 0.05])
        #expect(ResultColumns.columns.allSatisfy { $0.defaultTolerance == nil || $0.judgement == .measured })
    }

    @Test("every charted column is a number and names its chart's file uniquely")
    func charts() {
        let charted = ResultColumns.charted
        #expect(charted.map(\.name) == ["wall_s", "fetch_count", "peak_rss_bytes", "reader_p99_s"])
        #expect(charted.allSatisfy { $0.unit.isNumeric })
        #expect(Set(charted.compactMap { $0.chart?.slug }).count == charted.count)
    }

    @Test("the table's headings are the declared ones, ratios after the time, probe columns only when probed, verdict last")
    func tableHeadings() throws {
        let plain = try #require(SummaryTable.render([sampleResult(strategy: "naive", wall: 2)]).split(separator: "\n").first)
        #expect(
            plain.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
                == "strategy occurrences objects fetches statements txns wall s x limit x naive peak RSS MB valid")
        var probed = sampleResult(strategy: "naive", wall: 2)
        probed.measurement.readerProbe = ReaderProbeSummary(
            hz: 60, queries: 10, p50Seconds: 0.001, p99Seconds: 0.002, maxSeconds: 0.004, longestBlockedSeconds: 0)
        let header = try #require(SummaryTable.render([probed]).split(separator: "\n").first)
        #expect(header.hasSuffix("peak RSS MB  longest txn ms  reader p99 ms  reader max ms  valid"))
        #expect(SummaryTable.render([probed]).contains("4.000"))  // the worst max, in milliseconds
    }
}

@Suite("Growth with scale")
struct GrowthTableTests {
    @Test("the fitted exponent recovers a power law", arguments: [1.0, 2.0, 0.5])
    func exponent(power: Double) throws {
        let points = [1.0, 2.0, 4.0, 8.0].map { ($0, 3 * pow($0, power)) }
        #expect(abs(try #require(GrowthTable.exponent(points)) - power) < 1e-9)
    }

    @Test("a sweep gets a row per strategy; a single scale gets no table")
    func table() throws {
        func run(_ strategy: String, scale: String, wall: Double, records: Int) -> RunResult {
            var result = sampleResult(strategy: strategy, wall: wall)
            result.scale = scale
            result.measurement.occurrences = records
            return result
        }
        let sweep = [
            run("naive", scale: "1x", wall: 1, records: 100), run("naive", scale: "4x", wall: 16, records: 400),
            run("ceiling", scale: "1x", wall: 0.5, records: 100), run("ceiling", scale: "4x", wall: 2, records: 400),
        ]
        let text = try #require(GrowthTable.render(sweep))
        let lines = text.split(separator: "\n")
        #expect(lines[0] == "growth with scale: chat batch 1000")
        #expect(lines[3].hasPrefix("naive") && lines[3].contains("2.00"))
        #expect(lines[4].hasPrefix("ceiling") && lines[4].contains("1.00"))
        #expect(GrowthTable.render(Array(sweep.prefix(1))) == nil)
    }

    @Test("time's exponent carries its range over the repetitions and a verdict only where the range allows one; counts' are exact")
    func verdicts() throws {
        var sweep: [RunResult] = []
        for repetition in 1...3 {
            for (scale, factor) in [("1x", 1.0), ("2x", 2.0), ("4x", 4.0)] {
                let wiggle = 1 + 0.01 * Double(repetition)
                var linear = sampleResult(strategy: "prewarm", wall: factor * wiggle, repetition: repetition)
                var quadratic = sampleResult(strategy: "naive", wall: factor * factor * wiggle, repetition: repetition)
                var noisy = sampleResult(strategy: "cache", wall: factor * (repetition == 2 ? factor : 1), repetition: repetition)
                for index in [0, 1, 2] {
                    var run = [linear, quadratic, noisy][index]
                    run.scale = scale
                    run.measurement.occurrences = Int(100 * factor)
                    run.measurement.counts.fetches = index == 1 ? Int(10 * factor * factor) : Int(10 * factor)
                    run.measurement.counts.inserts = Int(5 * factor)
                    if index == 0 { linear = run } else if index == 1 { quadratic = run } else { noisy = run }
                }
                sweep += [linear, quadratic, noisy]
            }
        }
        let lines = try #require(GrowthTable.render(sweep)).split(separator: "\n").map(String.init)
        let naive = try #require(lines.first { $0.hasPrefix("naive") })
        #expect(naive.contains("2.00 (2.00-2.00) superlinear") && naive.contains("2.00 superlinear"), "\(naive)")
        let prewarm = try #require(lines.first { $0.hasPrefix("prewarm") })
        #expect(prewarm.contains("1.00 (1.00-1.00) linear") && prewarm.contains("1.00 linear"), "\(prewarm)")
        let cache = try #require(lines.first { $0.hasPrefix("cache") })
        #expect(cache.contains("(1.00-2.00)") && !cache.contains(") linear") && !cache.contains(") superlinear"), "\(cache)")
    }

    @Test("the header's decode rate is the ceiling's decoding in turn: decoded ahead, decode_s is only the wait", arguments: [false, true])
    func decodeRate(ahead: Bool) {
        var ceiling = sampleResult(strategy: "ceiling", wall: 1)
        ceiling.role = .limit
        ceiling.payloadBytes = 50_000_000
        ceiling.measurement.decodeSeconds = 0.1
        ceiling.decodeAhead = ahead
        let lines = SummaryTable.harnessLines([ceiling])
        #expect(lines.contains("decoding: 500 MB/s") == !ahead, "\(lines)")
    }

    @Test("a sweep over decoding ahead and a pragma gets a table per setting, never one median over them")
    func tablePerSetting() throws {
        var sweep: [RunResult] = []
        for (ahead, pragmas) in [(false, [StorePragma]()), (true, []), (false, [try StorePragma(name: .tempStore, value: "memory")])] {
            for (scale, wall) in [("1x", 1.0), ("4x", 4.0)] {
                var result = sampleResult(strategy: "naive", wall: wall)
                result.scale = scale
                result.decodeAhead = ahead
                result.settings.pragmas = pragmas
                sweep.append(result)
            }
        }
        let titles = try #require(GrowthTable.render(sweep)).split(separator: "\n").filter { $0.hasPrefix("growth with scale") }
        #expect(
            titles == [
                "growth with scale: chat batch 1000", "growth with scale: chat batch 1000, decoding ahead",
                "growth with scale: chat batch 1000, journal wal, synchronous normal, temp_store memory",
            ])
    }

    @Test("a plug-in's strategy, which no table knows by name, gets its row in the order it ran")
    func pluginRows() throws {
        func run(_ strategy: String, scale: String, wall: Double) -> RunResult {
            var result = sampleResult(strategy: strategy, wall: wall)
            result.scale = scale
            return result
        }
        let sweep = ["naive", "grdb-naive", "ceiling"].flatMap { name in
            [run(name, scale: "1x", wall: 1), run(name, scale: "4x", wall: 4)]
        }
        let growth = try #require(GrowthTable.render(sweep)).split(separator: "\n")
        #expect(growth.filter { $0.hasPrefix("grdb-naive") }.count == 1)
        #expect(growth.firstIndex { $0.hasPrefix("naive") }! < growth.firstIndex { $0.hasPrefix("grdb-naive") }!)
        let table = SummaryTable.render(sweep).split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) ?? "" }
        #expect(Array(table.dropFirst(2)) == ["naive", "grdb-naive", "ceiling"])
    }
}
