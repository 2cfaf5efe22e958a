import Foundation

/// The report as one self-contained HTML page: inline SVG charts, inline CSS, no script, no
/// fonts or anything else fetched. No timestamp either: the same CSVs give the same bytes, so a
/// report can be diffed and tested.
package enum HTMLReport {
    /// The page, with `tables` (the expectations' verdicts) after the charts, before the environment.
    package static func render(_ report: ChartReport, tables: [ReportTable] = []) -> String {
        let runs = report.input.runs
        let scenarios = Set(runs.map(\.scenario)).sorted()
        let strategies = ChartPalette(strategies: runs.map(\.strategy)).sorted(runs.map(\.strategy))
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>ImportBench report: \(escape(scenarios.joined(separator: ", ")))</title>
            <style>
            \(style)
            \(AnswerHTML.style)
            </style>
            </head>
            <body>
            <header>
            <h1>ImportBench report</h1>
            <p class="summary">\(runs.count) run\(runs.count == 1 ? "" : "s") of \(escape(strategies.joined(separator: ", "))) \
            from \(report.input.files.isEmpty ? "memory" : report.input.files.map { "<code>\(escape($0))</code>" }.joined(separator: ", ")).</p>

            """
        html += AnswerHTML.render(report.answer)
        if report.sections.count > 1 {
            html += "<nav><ul>\n"
            for (index, section) in report.sections.enumerated() {
                html += "<li><a href=\"#section-\(index + 1)\">\(escape(section.title))</a></li>\n"
            }
            html += "</ul></nav>\n"
        }
        html += "</header>\n"
        for (index, section) in report.sections.enumerated() {
            html += "<section class=\"scenario\" id=\"section-\(index + 1)\">\n<h2>\(escape(section.title))</h2>\n"
            for warning in section.warnings { html += "<p class=\"warning\">\(escape(warning))</p>\n" }
            for metric in ChartReport.Metric.allCases {
                html += "<section class=\"metric\" data-metric=\"\(metric.rawValue)\">\n<h3>\(escape(metric.heading))</h3>\n"
                let charts = section.charts(metric)
                if let note = section.notes[metric], charts.isEmpty {
                    html += "<p class=\"note\">\(escape(note))</p>\n"
                } else {
                    html += "<p class=\"explain\">\(escape(metric.chart.explanation))</p>\n<div class=\"panels\">\n"
                    for chart in charts { html += "<figure id=\"\(escape(chart.fileName))\">\n\(chart.svg)</figure>\n" }
                    html += "</div>\n"
                }
                html += "</section>\n"
            }
            html += "</section>\n"
        }
        for table in tables { html += Self.table(table) }
        html += environment(report.input)
        html += "</body>\n</html>\n"
        return html
    }

    /// Writes the page, creating the directory it goes in.
    package static func write(_ report: ChartReport, tables: [ReportTable] = [], to path: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(render(report, tables: tables).utf8).write(to: url, options: .atomic)
    }

    private static func environment(_ input: ReportInput) -> String {
        let labels = [
            ("cpu_model", "CPU"), ("cpu_count", "CPU count"), ("os", "operating system"), ("sqlite_version", "SQLite"),
            ("swift_version", "Swift"), ("bench_version", "bench"), ("csv_version", "CSV version"),
        ]
        var rows: [(String, String)] = labels.map { column, label in
            (label, input.environment[column].map { $0.map(escape).joined(separator: "<br>") } ?? "<span class=\"missing\">not recorded</span>")
        }
        let settings = Set(
            input.runs.map { run -> String in
                let journal = run.journalMode.isEmpty ? "?" : run.journalMode
                let synchronous = run.synchronous.isEmpty ? "?" : run.synchronous
                return journal == "?" && synchronous == "?" ? "" : "\(journal) / \(synchronous)"
            }
        ).filter { !$0.isEmpty }.sorted()
        rows.append(
            (
                "journal / synchronous",
                settings.isEmpty ? "<span class=\"missing\">not recorded</span>" : settings.map(escape).joined(separator: "<br>")
            ))
        let options = input.environment["sqlite_compile_options"].map { values in
            values.map { "<code class=\"options\">\(escape($0))</code>" }.joined(separator: "<br>")
        }
        rows.append(("SQLite compile options", options ?? "<span class=\"missing\">not recorded</span>"))
        rows.append(("CSV files read", input.files.isEmpty ? "none" : input.files.map { "<code>\(escape($0))</code>" }.joined(separator: "<br>")))
        var html = "<section id=\"environment\">\n<h2>Environment</h2>\n<table class=\"environment\">\n"
        for (label, value) in rows { html += "<tr><th scope=\"row\">\(escape(label))</th><td>\(value)</td></tr>\n" }
        return html + "</table>\n</section>\n"
    }

    /// A section holding one of `tables`, every cell escaped.
    private static func table(_ table: ReportTable) -> String {
        var html = "<section class=\"table\">\n<h2>\(escape(table.title))</h2>\n<p class=\"explain\">\(escape(table.explanation))</p>\n<table>\n<tr>"
        for header in table.headers { html += "<th scope=\"col\">\(escape(header))</th>" }
        html += "</tr>\n"
        for row in table.rows { html += "<tr>" + row.map { "<td>\(escape($0))</td>" }.joined() + "</tr>\n" }
        return html + "</table>\n</section>\n"
    }

    static func escape(_ text: String) -> String { XMLText.escape(text) }

    static let style = """
        body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; color: #222; background: #fafafa; margin: 0 auto; padding: 16px 24px 48px; max-width: 1260px; }
        h1 { font-size: 24px; margin: 8px 0 4px; }
        h2 { font-size: 20px; margin: 32px 0 8px; padding-bottom: 4px; border-bottom: 2px solid #ddd; }
        h3 { font-size: 16px; margin: 20px 0 4px; }
        p { margin: 4px 0 8px; line-height: 1.4; font-size: 14px; }
        p.summary, p.explain { color: #555; }
        p.note { background: #fff8e1; border-left: 4px solid #f0b400; padding: 8px 12px; }
        p.warning { background: #fdecea; border-left: 4px solid #d62728; padding: 8px 12px; }
        nav ul { margin: 4px 0; padding-left: 20px; font-size: 14px; }
        .panels { display: flex; flex-wrap: wrap; gap: 16px; }
        figure { margin: 0; background: #fff; border: 1px solid #e2e2e2; border-radius: 4px; }
        figure svg { display: block; }
        table.environment { border-collapse: collapse; font-size: 13px; background: #fff; max-width: 100%; }
        table.environment th, table.environment td { border: 1px solid #ddd; padding: 5px 10px; text-align: left; vertical-align: top; }
        table.environment th { background: #f2f2f2; white-space: nowrap; font-weight: 600; }
        code { font-size: 12px; }
        code.options { display: block; white-space: normal; word-break: break-word; max-width: 1000px; }
        .missing { color: #999; }
        """
}
