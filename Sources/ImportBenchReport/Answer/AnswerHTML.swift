/// The answer as the top of the page: the winner of a first import and of a refresh, one table (per
/// payload and setting, every strategy's rank, time and multiples, invalid runs marked), the winner
/// sentences, then the charts across the sweep.
enum AnswerHTML {
    /// The id the table carries, which `scripts/check-report` looks for in the rendered page.
    static let tableID = "answer-table"
    /// The id of the list naming the winner of a first import and of a refresh, apart.
    static let headlinesID = "answer-by-import"

    static func render(_ answer: AnswerReport) -> String {
        guard !answer.groups.isEmpty else { return "" }
        var html = "<section id=\"answer\">\n<h2>Answer: the fastest valid strategy</h2>\n<ul id=\"\(headlinesID)\">\n"
        for headline in answer.headlines { html += "<li>\(escape(headline))</li>\n" }
        html += "</ul>\n"
        html += "<p class=\"explain\">\(escape(explanation(answer)))</p>\n"
        html += table(answer)
        html += "<ul id=\"winner-changes\">\n"
        for sentence in answer.sentences { html += "<li>\(escape(sentence))</li>\n" }
        if answer.axes.swept.isEmpty {
            html += "<li>Nothing was swept (one scale, one batch size, one setting): there is no change of winner to tell.</li>\n"
        }
        html += "</ul>\n" + charts(answer) + "</section>\n"
        return html
    }

    private static func explanation(_ answer: AnswerReport) -> String {
        let ceilings = Set(answer.groups.compactMap { $0.ceiling?.strategy }).sorted()
        let ceiling =
            ceilings.isEmpty
            ? "No ceiling ran (no run has role reference), so there is no multiple of it."
            : "× ceiling: over the ceiling's time under the same setting (\(WinnerChange.list(ceilings)), the run whose role is reference)."
        return "Per payload and setting, medians of the repetitions. × fastest: each strategy's time over the fastest valid one's. "
            + ceiling + " Only strategies valid in every run are ranked; the ceiling and known mistakes (role pitfall) are shown, not ranked."
            + (answer.axes.shared.isEmpty ? "" : " Every run: \(answer.axes.shared).")
    }

    private static func table(_ answer: AnswerReport) -> String {
        let dimensions = answer.axes.swept
        var html = "<table id=\"\(tableID)\" class=\"answer\">\n<thead><tr><th scope=\"col\">payload and setting</th>"
        for heading in ["rank", "strategy", "wall s", "× fastest", "× ceiling", "fetches", "runs"] {
            html += "<th scope=\"col\">\(escape(heading))</th>"
        }
        html += "</tr></thead>\n"
        for group in answer.groups { html += rows(group, label: group.identity.label(dimensions)) }
        return html + "</table>\n"
    }

    private static func rows(_ group: AnswerGroup, label: String) -> String {
        let winner = group.fastest.map { "fastest: \($0.strategy)" } ?? "no strategy is valid"
        var html = "<tbody class=\"group\">\n"
        for (index, standing) in group.standings.enumerated() {
            let kind = standing.rank == 1 ? "fastest" : standing.isInvalid ? "invalid" : standing.isRanked ? "ranked" : "unranked"
            html += "<tr class=\"\(kind)\" data-strategy=\"\(escape(standing.strategy))\">"
            if index == 0 {
                html +=
                    "<th scope=\"rowgroup\" rowspan=\"\(group.standings.count)\">\(escape(label))<br><span class=\"winner\">\(escape(winner))</span></th>"
            }
            html += cells(standing) + "</tr>\n"
        }
        return html + "</tbody>\n"
    }

    private static func cells(_ standing: StrategyStanding) -> String {
        let values = [
            standing.verdict, standing.strategy, standing.wallSeconds.map(SummaryTable.seconds) ?? "—",
            multiple(standing.multipleOfFastest), multiple(standing.multipleOfCeiling),
            standing.fetches.map { SummaryTable.count(Int($0.rounded())) } ?? "—", String(standing.repetitions),
        ]
        return values.enumerated().map { index, value in "<td\(index >= 2 ? " class=\"number\"" : "")>\(escape(value))</td>" }.joined()
    }

    private static func multiple(_ value: Double?) -> String { value.map { String(format: "%.2f×", $0) } ?? "—" }

    private static func charts(_ answer: AnswerReport) -> String {
        guard !answer.charts.isEmpty else {
            let why = answer.axes.swept.isEmpty ? "nothing was swept" : "no ceiling ran to divide by"
            return "<p class=\"note\">No chart across the sweep: \(escape(why)).</p>\n"
        }
        var html = "<h3>Each strategy against the ceiling across the sweep</h3>\n<div class=\"panels\">\n"
        for chart in answer.charts { html += "<figure id=\"\(escape(chart.fileName))\">\n\(chart.svg)</figure>\n" }
        return html + "</div>\n"
    }

    private static func escape(_ text: String) -> String { XMLText.escape(text) }

    static let style = """
        table.answer { border-collapse: collapse; font-size: 13px; background: #fff; margin: 8px 0 12px; }
        table.answer th, table.answer td { border: 1px solid #ddd; padding: 4px 9px; text-align: left; vertical-align: top; }
        table.answer thead th { background: #f2f2f2; font-weight: 600; }
        table.answer th[scope="rowgroup"] { background: #f8f8f8; font-weight: 600; max-width: 320px; }
        table.answer td.number { text-align: right; font-variant-numeric: tabular-nums; }
        table.answer span.winner { font-weight: normal; color: #1a7f37; }
        table.answer tr.fastest td { background: #e8f5e9; font-weight: 600; }
        table.answer tr.invalid td { background: #fdecea; color: #8a1c1c; }
        table.answer tr.unranked td { color: #666; }
        #winner-changes { font-size: 14px; line-height: 1.5; }
        #answer-by-import { font-size: 16px; font-weight: 600; line-height: 1.6; }
        """
}
