import Foundation
import ImportBenchCore
import ImportBenchReport
import Testing

@Suite("Results files read back")
struct ResultsFileTests {
    @Test("quoted fields keep their commas, quotes and line breaks; rows are found by column name and line")
    func quotedFields() throws {
        let folder = try TemporaryFolder()
        let text =
            CSVWriter.record(["scenario", "cpu_model", "wall_s"])
            + CSVWriter.record(["chat", "Intel, \"Xeon\"\nrev 2", "0.5"]) + "\n" + CSVWriter.record(["quakes", "", "1"])
        let file = try ResultsFile(path: try folder.write(text, to: "quoted.csv"), required: ["scenario"])
        #expect(file.columns == ["scenario", "cpu_model", "wall_s"])
        #expect(file.rows.count == 2)
        #expect(file.rows[0].text("cpu_model") == "Intel, \"Xeon\"\nrev 2")
        #expect(try file.rows[0].number("wall_s") == 0.5)
        #expect(file.rows[1].line == 5)  // the quoted line break and the blank line count
        #expect(try file.rows[1].number("cpu_model") == nil)
        #expect(file.rows[1].text("absent") == nil)
    }

    @Test(
        "what is not a results file is refused with the file and line",
        arguments: [
            ("a,b\r\n1,2,3\r\n", "results file", "line 2): expected 2 fields, as the header has, found 3"),
            ("a,b\r\n\"open,2\r\n", "results file", "line 2): expected a closing quote, found the end of the file"),
            ("a,wall_s\r\n1,fast\r\n", "results file", "line 2, column wall_s): expected a number, found 'fast'"),
            ("a,wall_s\r\n1,nan\r\n", "results file", "line 2, column wall_s): expected a number, found 'nan'"),
            ("", "results file", "line 1): expected a results CSV header, found an empty file"),
        ])
    func refusals(text: String, prefix: String, ending: String) throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(text, to: "bad.csv")
        do {
            let file = try ResultsFile(path: path, required: [])
            for row in file.rows { _ = try row.number("wall_s") }
            Issue.record("accepted: \(text.debugDescription)")
        } catch {
            let message = String(describing: error)
            #expect(message.hasPrefix("\(prefix) \(path) (bad.csv "), "\(message)")
            #expect(message.hasSuffix(ending), "\(message)")
        }
    }

    @Test("a row without end (as /dev/zero gives) stops at the row limit, with an excerpt of bounded length")
    func endlessRow() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("a,b\r\n" + String(repeating: "x", count: ResultsFile.longestRowBytes + 10), to: "endless.csv")
        #expect(
            throws: ResultsInputError.malformed(
                file: path, location: "endless.csv line 2", expected: "a row of at most \(ResultsFile.longestRowBytes) bytes", found: "a longer one"
            )
        ) { _ = try ResultsFile(path: path, required: []) }
        let long = try folder.write("wall_s\r\n" + String(repeating: "9", count: 5_000) + "z\r\n", to: "long.csv")
        do {
            _ = try ResultsFile(path: long, required: []).rows.map { try $0.number("wall_s") }
            Issue.record("a 5,001-character number was accepted")
        } catch {
            #expect(String(describing: error).count < 600)
        }
    }

    @Test("a report's runs carry the role and every declared number the CSV holds")
    func reportRuns() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("results.csv").path
        try CSVReport.write([sampleResult(strategy: "naive", wall: 2), sampleResult(strategy: "ceiling", wall: 0.5)], to: path)
        let runs = try ReportInput(paths: [path]).runs
        #expect(runs.map(\.role) == ["baseline", "reference"])
        #expect(runs[0].value("wall_s") == 2)
        #expect(runs[0].value("fetch_count") == 120)
        #expect(runs[0].value("wall_ratio_to_ceiling") == 4)
        #expect(runs[0].value("reader_p99_s") == nil)
        #expect(runs[0].records == 100)
    }
}
