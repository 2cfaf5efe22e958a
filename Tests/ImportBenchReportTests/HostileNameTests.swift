import Foundation
import ImportBenchCore
import ImportBenchReport
import Testing

/// Names from a hostile review (issue 47, item 5): what a strategy, a mapping or a hand-edited CSV
/// may be called, and what a spreadsheet or GitHub's Markdown would make of it.
let hostileNames = [
    "=x", "'x", "|", "![img](u)", "+1", "@SUM(A1)", "-2", "\tx", "\rx", "'", "''=", "=HYPERLINK(\"http://x\")", "=cmd|' /C calc'!A0",
    "<img src=x onerror=alert(1)>", "a&amp;b", "`code`", "a\\", "[link](http://x)", "naive",
]

/// The text a Markdown cell shows: backslash escapes and the three entities undone, as a renderer would.
func shownText(_ markdown: String) -> String {
    var shown = ""
    var rest = markdown[...]
    while let character = rest.first {
        if character == "\\", let next = rest.dropFirst().first, next.isASCII, next.isPunctuation || next.isSymbol {
            shown.append(next)
            rest = rest.dropFirst(2)
            continue
        }
        if let entity = [("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")].first(where: { rest.hasPrefix($0.0) }) {
            shown += entity.1
            rest = rest.dropFirst(entity.0.count)
            continue
        }
        shown.append(character)
        rest = rest.dropFirst()
    }
    return shown
}

/// The cells of one row of a Markdown table, as written.
func markdownCells(_ row: some StringProtocol) -> [String] {
    String(row).dropFirst(2).dropLast(2).components(separatedBy: " | ")
}

/// What is left of Markdown once its escaped characters are taken out: where a `|`, `[`, `]`, `!`,
/// backtick, `<` or `>` would be markup.
func unescapedMarkup(_ markdown: String) -> String {
    var left = ""
    var rest = markdown[...]
    while let character = rest.first {
        rest = rest.dropFirst()
        if character == "\\" {
            rest = rest.dropFirst()
            continue
        }
        if "|[]!`<>".contains(character) { left.append(character) }
    }
    return left
}

@Suite("Hostile names: spreadsheet-safe CSV, inert Markdown")
struct HostileNameTests {
    @Test(
        "a text cell a spreadsheet would run is written after a quote, a quote gets one more, and reading takes exactly that away",
        arguments: hostileNames)
    func neutralisedAndRestored(name: String) {
        let cell = SpreadsheetText.neutralised(name)
        let formula = name.unicodeScalars.first.map { "=+-@\t\r'".unicodeScalars.contains($0) } ?? false
        #expect(cell == (formula ? "'" + name : name))
        #expect(SpreadsheetText.restored(cell) == name)
    }

    @Test("a quote bench did not add (a file written before the rule, or by hand) is kept", arguments: ["'hello", "'", "'1", "x'=y"])
    func foreignQuoteKept(cell: String) {
        #expect(SpreadsheetText.restored(cell) == cell)
    }

    @Test(
        "a strategy or scenario named so is a text cell in the CSV and the same name when compare, report and export read it", arguments: hostileNames
    )
    func csvRoundTrip(name: String) throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("hostile.csv").path
        try CSVReport.write([sampleResult(strategy: name, wall: 1, scenario: name), sampleResult(strategy: "naive", wall: 2)], to: path)
        let raw = parseCSV(try String(contentsOfFile: path, encoding: .utf8))
        let header = raw[0]
        for column in ["scenario", "strategy"] {
            let index = try #require(header.firstIndex(of: column))
            // Nothing a spreadsheet would take for a formula, in any text cell.
            #expect(raw[1][index].first.map { !"=+-@\t\r".contains($0) } ?? true, "\(raw[1][index].debugDescription)")
        }
        let file = try ResultsFile(results: path)
        #expect(file.rows[0].text("strategy") == name)
        #expect(file.rows[0].text("scenario") == name)
        let table = try ResultTable(path: path, columns: [])
        #expect(table.rows.keys.contains { $0.strategy == name && $0.scenario == name })
    }

    @Test("numbers stay numbers: a negative value in a numeric column is written as it is, never after a quote")
    func numbersUntouched() throws {
        var result = sampleResult(strategy: "=x", wall: 1)
        result.measurement.cpuSystemSeconds = -0.5
        let rows = parseCSV(CSVReport.render([result]))
        let header = rows[0]
        #expect(rows[1][try #require(header.firstIndex(of: "cpu_sys_s"))] == "-0.500000")
        #expect(rows[1][try #require(header.firstIndex(of: "strategy"))] == "'=x")
        for column in ResultColumns.columns where column.unit != .text {
            let field = rows[1][try #require(header.firstIndex(of: column.name))]
            #expect(!field.hasPrefix("'"), "\(column.name): \(field)")
        }
    }

    @Test("the committed results read exactly as their bytes say: no field of theirs is changed by the rule")
    func committedFilesUnchanged() throws {
        let results = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Results")
        let names = try FileManager.default.contentsOfDirectory(atPath: results.path).filter { $0.hasSuffix(".csv") }.sorted()
        #expect(names.contains("baseline.csv"))
        for name in names {
            let path = results.appendingPathComponent(name).path
            let raw = parseCSV(try String(contentsOfFile: path, encoding: .utf8))
            let file = try ResultsFile(path: path, required: [])
            #expect(file.columns == raw[0])
            #expect(file.rows.map { row in file.columns.map { row.text($0) ?? "?" } } == Array(raw.dropFirst()), "\(name)")
        }
    }

    @Test("a file written before the rule, a text cell beginning with a quote: read as written")
    func olderFileWithQuote() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("old.csv").path
        try CSVReport.write([sampleResult(strategy: "naive", wall: 1)], to: path)
        let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: ",naive,", with: ",'quoted,")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try ResultsFile(results: path).rows[0].text("strategy") == "'quoted")
    }

    @Test("Markdown shows a name as written: no extra column, image, link, code span or HTML", arguments: hostileNames)
    func markdownEscape(name: String) {
        let escaped = MarkdownText.escape(name)
        #expect(unescapedMarkup(escaped).isEmpty, "\(escaped)")
        #expect(!escaped.contains("\n") && !escaped.contains("\r"))
        #expect(shownText(escaped) == name.replacingOccurrences(of: "\r", with: " "))
    }

    @Test("compare's Markdown: each changed row is one table row of six cells that shows the names as written")
    func compareMarkdown() throws {
        let folder = try TemporaryFolder()
        let baseline = hostileNames.map { sampleResult(strategy: $0, wall: 1) } + [sampleResult(strategy: "gone|![x](y)", wall: 1)]
        let current = hostileNames.map { name in
            var result = sampleResult(strategy: name, wall: 1)
            result.measurement.counts.fetches += 1
            return result
        }
        let base = folder.url.appendingPathComponent("base.csv").path
        let now = folder.url.appendingPathComponent("now.csv").path
        try CSVReport.write(baseline, to: base)
        try CSVReport.write(current, to: now)
        let comparison = try BaselineComparison(baselinePath: base, currentPath: now, tolerances: [:])
        let markdown = comparison.markdown
        let rows = markdown.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| row |") }
        #expect(rows.count == 2 * hostileNames.count, "\(markdown)")  // fetch_count and statement_count
        var shown: Set<String> = []
        for row in rows {
            // Seven column pipes and no other markup: every other character of the names is escaped.
            #expect(unescapedMarkup(String(row)) == "|||||||", "\(row)")
            let cells = markdownCells(row)
            try #require(cells.count == 6, "\(row)")
            shown.insert(shownText(cells[0]))
        }
        #expect(shown == Set(hostileNames.map { "chat \($0.replacingOccurrences(of: "\r", with: " ")) 1x batch 1000" }))
        let missing = try #require(markdown.split(separator: "\n").first { $0.contains("missing from the current run") })
        #expect(unescapedMarkup(String(missing)).isEmpty, "\(missing)")
        #expect(shownText(String(missing)).contains("chat gone|![x](y) 1x batch 1000"))
    }

    @Test("the run's Markdown table and its growth tables keep a hostile name in its cell")
    func runMarkdown() throws {
        let names = ["|", "![img](u)", "=HYPERLINK(\"http://x\")", "<b>", "`x`"]
        var results: [RunResult] = []
        for name in names {
            for (scale, wall, records) in [("1x", 1.0, 100), ("4x", 4.0, 400)] {
                var result = sampleResult(strategy: name, wall: wall, scenario: "![s](u)|")
                result.scale = scale
                result.measurement.occurrences = records
                results.append(result)
            }
        }
        for text in [SummaryTable.renderMarkdown(results), try #require(GrowthTable.render(results, markdown: true))] {
            let lines = text.split(separator: "\n")
            let tableLines = lines.filter { $0.hasPrefix("|") }
            let columns = unescapedMarkup(String(tableLines[0])).count
            #expect(tableLines.allSatisfy { unescapedMarkup(String($0)).count == columns && !unescapedMarkup(String($0)).contains { $0 != "|" } })
            for name in names {
                #expect(tableLines.contains { markdownCells($0).first.map(shownText) == name }, "\(name)")
            }
            for line in lines where !line.hasPrefix("|") {
                #expect(unescapedMarkup(String(line)).isEmpty, "\(line)")
            }
        }
    }
}
