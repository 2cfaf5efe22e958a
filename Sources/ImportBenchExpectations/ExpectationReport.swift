import Foundation
import ImportBenchCore
import ImportBenchReport

/// Every verdict as a row: in the terminal table or Markdown after the results, and in a CSV file
/// beside the results' (`<results>.expectations.csv`) that CI keeps.
package enum ExpectationReport {
    /// The CSV's columns, in order.
    package static let csvColumns = [
        "rule", "origin", "reason", "configuration", "verdict", "measured", "limit", "lower", "upper", "repetitions_to_decide", "basis",
    ]

    /// The table (or Markdown) of `verdicts`, headed by how many held, broke and are undecided.
    package static func render(_ verdicts: [ExpectationVerdict], markdown: Bool = false) -> String {
        var table = TextTable(
            headers: ["verdict", "rule", "configuration", "measured", "limit", "interval", "basis"],
            alignments: [.left, .left, .left, .right, .right, .right, .left])
        for verdict in verdicts { table.append(cells(verdict)) }
        let counts = [ExpectationVerdict.Outcome.held, .broken, .undecided].map { outcome in
            "\(verdicts.filter { $0.outcome == outcome }.count) \(outcome.rawValue)"
        }
        let title = "expectations: " + counts.joined(separator: ", ")
        return markdown
            ? "**\(MarkdownText.escape(title))**\n\n" + table.renderMarkdown() + "\n"
            : title + "\n" + table.render() + "\n"
    }

    /// The verdicts as a table of the report page (`bench report --expect`).
    package static func reportTable(_ verdicts: [ExpectationVerdict]) -> ReportTable {
        ReportTable(
            title: "Expectations",
            explanation:
                "Each rule on each configuration: held or broken exactly for counts, for timings only when the whole interval is on one side of the limit (docs/ci.md).",
            headers: ["verdict", "rule", "configuration", "measured", "limit", "interval", "basis"],
            rows: verdicts.map(cells))
    }

    /// A verdict's cells as the table and the report show them.
    private static func cells(_ verdict: ExpectationVerdict) -> [String] {
        var basis = verdict.basis
        if let more = verdict.repetitionsToDecide { basis += "; about \(more) repetitions would likely decide it" }
        if let reason = verdict.rule.reason { basis += "; why: \(reason)" }
        return [
            verdict.outcome.rawValue, verdict.rule.text, verdict.configuration, figure(verdict.measured), figure(verdict.limit),
            verdict.interval.map { "\(figure($0.lowerBound))-\(figure($0.upperBound))" } ?? "-", basis,
        ]
    }

    /// The verdicts as CSV, one row each.
    package static func csv(_ verdicts: [ExpectationVerdict]) -> String {
        var text = CSVWriter.record(csvColumns)
        for verdict in verdicts { text += CSVWriter.record(fields(verdict)) }
        return text
    }

    /// One verdict's fields in `csvColumns`' order. What a person wrote is neutralised for
    /// spreadsheets, as the results' text columns are; `--expect #1` is bench's own.
    private static func fields(_ verdict: ExpectationVerdict) -> [String] {
        let origin = verdict.rule.origin
        let originText = origin.isOption ? origin.description : SpreadsheetText.neutralised(origin.description)
        let written: [String] = [
            SpreadsheetText.neutralised(verdict.rule.text), originText, SpreadsheetText.neutralised(verdict.rule.reason ?? ""),
            SpreadsheetText.neutralised(verdict.configuration),
        ]
        let lower = verdict.interval.map { number($0.lowerBound) } ?? ""
        let upper = verdict.interval.map { number($0.upperBound) } ?? ""
        let figures: [String] = [verdict.outcome.rawValue, number(verdict.measured), number(verdict.limit), lower, upper]
        return written + figures + [verdict.repetitionsToDecide.map(String.init) ?? "", verdict.basis]
    }

    /// What a failing run says on standard error: how many rules were not held, then one line
    /// each with the rule, where it was given, both sides' figures and the interval.
    package static func failureMessage(_ failing: [ExpectationVerdict]) -> String {
        func brief(_ value: Double) -> String { value.isFinite ? String(format: "%.4g", value) : (value.isNaN ? "-" : "inf") }
        let lines = failing.map { verdict in
            "\(verdict.rule.origin) \(verdict.rule.text) [\(verdict.configuration)]: \(verdict.outcome.rawValue), measured "
                + "\(brief(verdict.measured)) against \(brief(verdict.limit))"
                + (verdict.interval.map { ", interval \(brief($0.lowerBound))-\(brief($0.upperBound))" } ?? "")
                + " (\(verdict.basis))"
        }
        return "\(failing.count) expectation\(failing.count == 1 ? "" : "s") not held:\n  " + lines.joined(separator: "\n  ")
    }

    /// Where the verdicts of the results at `csvPath` are written.
    package static func path(besideResults csvPath: String) -> String {
        (csvPath.hasSuffix(".csv") ? String(csvPath.dropLast(4)) : csvPath) + ".expectations.csv"
    }

    /// A count without decimals, with thousands separated; anything else with three significant decimals.
    private static func figure(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "-" : "inf" }
        if value == value.rounded(), abs(value) < 1e15 { return Figures.count(Int(value)) }
        return String(format: abs(value) >= 100 ? "%.1f" : "%.3f", value)
    }

    private static func number(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "" : "inf" }
        return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(format: "%.6g", value)
    }
}
