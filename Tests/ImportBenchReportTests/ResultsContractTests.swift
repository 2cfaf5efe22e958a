import Foundation
import ImportBenchCore
import ImportBenchReport
import Testing

/// The results contract `compare` and `report` hold every file to, and what compare does with
/// each kind of column.
@Suite("Results contract")
struct ResultsContractTests {
    /// A valid results CSV as `bench run` writes it, as header and rows of fields.
    private static func validTable() throws -> (header: [String], rows: [[String]]) {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("valid.csv").path
        var naive = sampleResult(strategy: "naive", wall: 2)
        naive.measurement.counts.inserts = 40
        try CSVReport.write([naive, sampleResult(strategy: "prewarm", wall: 1), sampleResult(strategy: "ceiling", wall: 0.5)], to: path)
        let file = try ResultsFile(path: path, required: [])
        return (file.columns, file.rows.map { row in file.columns.map { row.text($0) ?? "" } })
    }

    private static func text(_ header: [String], _ rows: [[String]]) -> String {
        ([header] + rows).map { CSVWriter.record($0) }.joined()
    }

    /// Edits the valid table, writes it, and returns the refusal of reading it as results.
    private func refusal(_ edit: (inout [String], inout [[String]]) -> Void) throws -> ResultsInputError? {
        var (header, rows) = try Self.validTable()
        edit(&header, &rows)
        let folder = try TemporaryFolder()
        let path = try folder.write(Self.text(header, rows), to: "edited.csv")
        return #expect(throws: ResultsInputError.self) { _ = try ResultsFile(results: path) }
    }

    private func set(_ column: String, to value: String, in header: [String], _ rows: inout [[String]], row: Int? = nil) {
        guard let index = header.firstIndex(of: column) else {
            Issue.record("no column \(column)")
            return
        }
        for position in rows.indices where row == nil || row == position { rows[position][index] = value }
    }

    @Test("a file as bench writes it is accepted, and so is an older version without the columns it predates")
    func accepted() throws {
        var (header, rows) = try Self.validTable()
        let folder = try TemporaryFolder()
        #expect(try ResultsFile(results: try folder.write(Self.text(header, rows), to: "v5.csv")).rows.count == 3)
        let role = try #require(header.firstIndex(of: "role"))
        header.remove(at: role)
        for index in rows.indices { rows[index].remove(at: role) }
        set("csv_version", to: "4", in: header, &rows)
        let older = try folder.write(Self.text(header, rows), to: "v4.csv")
        #expect(try ResultsFile(results: older).rows.count == 3)
    }

    @Test(
        "each breach of the contract is refused with the file, line and column",
        arguments: [
            ("wall_s is nan in every row", "line 2, column wall_s", "a finite number, 0 or more"),
            ("no fetch_count, digest or valid column", "line 1", "no column named fetch_count, digest, valid"),
            ("a newer csv_version", "line 2, column csv_version", "a newer bench wrote it"),
            ("two csv_versions", "line 3, column csv_version", "two versions in one file"),
            ("a negative count", "line 2, column fetch_count", "a whole number, 0 or more"),
            ("text in a count", "line 3, column records", "found 'many'"),
            ("an empty count", "line 4, column statement_count", "an empty field"),
            ("a verdict that is neither", "line 2, column valid", "true or false"),
            ("an infinite time", "line 2, column cpu_user_s", "found 'inf'"),
            ("a fraction of a byte", "line 2, column peak_rss_bytes", "a whole number"),
            ("the same run twice", "line 4", "the run and repetition of line 2 again"),
        ])
    func refused(breach: String, location: String, words: String) throws {
        let error = try refusal { header, rows in
            switch breach {
            case "wall_s is nan in every row": set("wall_s", to: "nan", in: header, &rows)
            case "no fetch_count, digest or valid column":
                for name in ["fetch_count", "digest", "valid"] {
                    guard let index = header.firstIndex(of: name) else { continue }
                    header.remove(at: index)
                    for row in rows.indices { rows[row].remove(at: index) }
                }
            case "a newer csv_version": set("csv_version", to: "\(ResultColumns.version + 1)", in: header, &rows)
            case "two csv_versions": set("csv_version", to: "4", in: header, &rows, row: 1)
            case "a negative count": set("fetch_count", to: "-3", in: header, &rows, row: 0)
            case "text in a count": set("records", to: "many", in: header, &rows, row: 1)
            case "an empty count": set("statement_count", to: "", in: header, &rows, row: 2)
            case "a verdict that is neither": set("valid", to: "maybe", in: header, &rows, row: 0)
            case "an infinite time": set("cpu_user_s", to: "inf", in: header, &rows, row: 0)
            case "a fraction of a byte": set("peak_rss_bytes", to: "1.5", in: header, &rows, row: 0)
            default: rows[2] = rows[0]
            }
        }
        guard case .malformed(_, let where_, let expected, let found)? = error else {
            Issue.record("not refused: \(breach)")
            return
        }
        #expect(where_?.hasSuffix(location) == true, "\(breach): \(where_ ?? "")")
        #expect("expected \(expected), found \(found)".contains(words), "\(breach): \(expected) / \(found)")
    }
}

@Suite("bench compare: each kind of column")
struct ColumnKindTests {
    private func compare(_ edit: (inout [RunResult]) -> Void) throws -> BaselineComparison {
        let folder = try TemporaryFolder()
        func results() -> [RunResult] {
            var results = [
                sampleResult(strategy: "naive", wall: 2), sampleResult(strategy: "prewarm", wall: 1), sampleResult(strategy: "ceiling", wall: 0.5),
            ]
            for index in results.indices { results[index].measurement.rowsWritten = 140 }
            return results
        }
        var current = results()
        edit(&current)
        let base = folder.url.appendingPathComponent("base.csv").path
        let now = folder.url.appendingPathComponent("now.csv").path
        try CSVReport.write(results(), to: base)
        try CSVReport.write(current, to: now)
        return try BaselineComparison(baselinePath: base, currentPath: now, tolerances: [:])
    }

    @Test("what a run wrote is correctness: halved records and rows fail, and so do doubled ones")
    func correctnessEitherWay() throws {
        for factor in [0.5, 2.0] {
            let comparison = try compare { results in
                for index in results.indices {
                    results[index].measurement.occurrences = Int(Double(results[index].records) * factor)
                    results[index].measurement.rowsWritten = Int64(Double(results[index].measurement.rowsWritten) * factor)
                }
            }
            #expect(comparison.verdict == .regression, "x\(factor)")
            #expect(Set(comparison.changes.map(\.metric)) == ["records", "rows_written"])
            #expect(comparison.changes.allSatisfy { $0.isRegression })
        }
    }

    @Test("a cost count is exact: fewer fetches are an improvement, which CI still fails on (exit 4), more a regression")
    func costCounts() throws {
        let fewer = try compare { $0[0].measurement.counts.fetches /= 2 }
        #expect(fewer.verdict == .improvementsOnly)
        #expect(fewer.verdict.rawValue == 4)
        #expect(fewer.changes.map(\.metric).contains("fetch_count"))
        let more = try compare { $0[0].measurement.counts.fetches *= 2 }
        #expect(more.verdict == .regression)
    }

    @Test(
        "a tolerance is 25% or 0.25; a bare number above 1 is refused",
        arguments: [
            ("wall_s=25%", 0.25), ("wall_s=0.25", 0.25), ("wall_s=1", 1), ("wall_s=250%", 2.5),
        ])
    func tolerance(text: String, value: Double) {
        #expect(BaselineComparison.parseTolerance(text)?.1 == value)
    }

    @Test("refused tolerances", arguments: ["wall_s=25", "wall_s=1.5", "wall_s=nan", "wall_s=inf%", "records=5%"])
    func refusedTolerance(text: String) {
        #expect(BaselineComparison.parseTolerance(text) == nil)
    }
}
