import Foundation
import ImportBenchCore
import ImportBenchStrategies

/// One column of the results contract, declared once: its CSV name, what kind of fact it is, its
/// unit and which way is better, how its value is taken from a run, and whether the terminal table
/// and the charts show it. The CSV, the JSON, `compare`, the table and the charts all read these
/// declarations, so a new metric is one declaration plus the code that measures it.
package struct ResultColumn: Sendable {
    /// How `bench compare` judges a column.
    package enum Judgement: Sendable {
        /// Describes the run (its key, settings, environment): not a metric.
        case none
        /// What the run wrote (records, rows, the digest, the verdict): any difference, either way,
        /// means the data changed, and fails.
        case correctness
        /// A cost count, deterministic for a seed (fetches, statements): exact; lower is an
        /// improvement, higher a regression.
        case exact
        /// Deterministic only for one SQLite build (the VM's steps).
        case exactForOneSQLite
        /// A timing or a size: judged against a relative tolerance.
        case measured
    }

    /// What a value is measured in; it fixes how the CSV writes it and how JSON types it.
    package enum Unit: Sendable {
        /// Free text, written as it is; JSON keeps it a string even when it looks like a number.
        case text
        /// A whole number (a count, a seed, a size in bytes).
        case integer
        case bytes
        /// Seconds, written with six decimals.
        case seconds
        /// A multiple of another run's value, written with three decimals.
        case ratio
        case boolean

        /// Whether a value of this unit is a number, for readers of the CSV.
        package var isNumeric: Bool {
            switch self {
            case .integer, .bytes, .seconds, .ratio: return true
            case .text, .boolean: return false
            }
        }
    }

    /// A run's value for a column, typed; `missing` is an empty CSV field and a JSON null.
    package enum Value: Sendable, Equatable {
        case text(String)
        case integer(Int64)
        case real(Double)
        case boolean(Bool)
        case missing
    }

    /// How the terminal table folds a column's repetitions into one cell.
    enum TableSummary: Sendable, Equatable {
        /// Exact counts: the first repetition's, with thousands separated.
        case count
        /// The median, with its min-max range when repeated, followed by the median's multiple of
        /// the runs with each of these roles (x ceiling, x naive).
        case medianWithRatios(to: [StrategyRole])
        /// The worst repetition, in MiB with one decimal.
        case worstMegabytes
        /// The worst repetition, in milliseconds: a stall seen once is a stall the user sees.
        case worstMilliseconds
        /// yes when every repetition's value is true; placed after every other column.
        case verdict
    }

    /// When the table shows a column.
    enum TableVisibility: Sendable, Equatable {
        case always
        /// Only when a reader probe ran beside the imports (`--probe-reads`).
        case whenProbed
    }

    struct TableColumn: Sendable {
        let heading: String
        let summary: TableSummary
        let visibility: TableVisibility
    }

    /// The kind of chart `bench report` draws of a column.
    package enum ChartKind: Sendable {
        /// Against the payload's size on log-log axes, with each strategy's growth exponent.
        case growth
        /// The worst repetition per strategy and scale, as bars, in MB.
        case barsByScale
        /// Per batch size, against a 60 Hz frame, in milliseconds.
        case byBatchSize
    }

    /// How a column is charted, and every word a chart and the report's page use for it.
    package struct Chart: Sendable {
        /// The file-name part (`time` in chat-time.svg) and the chart's kind in the SVG.
        package let slug: String
        package let heading: String
        /// Where its charts stand on the report's page, first to last.
        package let place: Int
        package let kind: ChartKind
        /// What the value is, in a title ("wall time" by payload size).
        package let what: String
        package let axisTitle: String
        /// The paragraph under the heading: how to read the chart.
        package let explanation: String
        /// A line under each chart's title saying what the value is taken from, if it needs one.
        package var detail: String? = nil
        /// Said instead of a chart when no run has a value; nil: the CSVs predate the column or left it empty.
        package var missingNote: String? = nil
        /// Begins the note when every value is zero ("No run executed a fetch"); nil: "No run has a positive NAME".
        package var zeroNote: String? = nil
        /// A strategy whose values are all zero, in the legend ("no fetches"); nil: "not recorded".
        package var zeroLabel: String? = nil
    }

    package let name: String
    /// The `csv_version` that introduced the column: a file of that version or later must have it.
    package private(set) var since = 1
    package let judgement: Judgement
    package let unit: Unit
    /// For a metric, whether a smaller value is the better one; nil for what is not a metric.
    package let lowerIsBetter: Bool?
    /// The relative change `bench compare` tolerates by default in a measured column; nil: it is
    /// judged only when a `--tolerance` names it.
    package let defaultTolerance: Double?
    let value: @Sendable (RunResult, RunContext) -> Value
    let table: TableColumn?
    package let chart: Chart?

    init(
        _ name: String, _ unit: Unit, _ judgement: Judgement = .none, lowerIsBetter: Bool? = nil, tolerance: Double? = nil,
        table: TableColumn? = nil, chart: Chart? = nil, value: @escaping @Sendable (RunResult, RunContext) -> Value
    ) {
        self.name = name
        defaultTolerance = tolerance
        self.unit = unit
        self.judgement = judgement
        self.lowerIsBetter = lowerIsBetter ?? (judgement == .none || judgement == .correctness ? nil : true)
        self.table = table
        self.chart = chart
        self.value = value
    }

    /// Whether it counts what the run executed (fetches, statements, rows written): empty in a row
    /// whose `counted_at` is `not_observed`, a command whose SQLite nothing could count.
    package private(set) var countsExecution = false

    /// The column as a count of what the run executed.
    func countingExecution() -> ResultColumn {
        var column = self
        column.countsExecution = true
        return column
    }

    /// The column as introduced by `csv_version` `version`.
    func since(_ version: Int) -> ResultColumn {
        var column = self
        column.since = version
        return column
    }

    /// Whether a results file must give the column a value in every row (counts and the verdict
    /// always have one; a measured value may be absent, as a reader latency without a probe).
    var requiresValue: Bool { judgement == .correctness || judgement == .exact || judgement == .exactForOneSQLite }

    /// Facts a row needs from its siblings: the reference run's time in the same repetition.
    package struct RunContext: Sendable {
        let ceilingWallSeconds: Double?

        /// The context of `result` among the runs reported with it.
        init(of result: RunResult, among results: [RunResult]) {
            let key = Self.ceilingKey(result)
            ceilingWallSeconds = results.first { $0.role == .limit && Self.ceilingKey($0) == key }?.measurement.wallSeconds
        }

        private init(ceilingWallSeconds: Double?) {
            self.ceilingWallSeconds = ceilingWallSeconds
        }

        /// Every result's context in one pass, for writers of every row: a file rewritten after each
        /// run would otherwise search all rows for each row's ceiling.
        package static func contexts(of results: [RunResult]) -> [RunContext] {
            var ceilings: [String: Double] = [:]
            for result in results where result.role == .limit {
                let key = ceilingKey(result)
                if ceilings[key] == nil { ceilings[key] = result.measurement.wallSeconds }
            }
            return results.map { RunContext(ceilingWallSeconds: ceilings[ceilingKey($0)]) }
        }

        /// The reference a run is divided by: the one of the same scenario, scale, batch size, store
        /// settings (a `--pragma` sweep writes every setting's rows into one file), decoding and repetition.
        private static func ceilingKey(_ result: RunResult) -> String {
            [
                result.scenario, result.scale, result.batchSize.description, result.settings.journal.rawValue,
                result.settings.synchronous.rawValue, result.settings.pragmaText, String(result.decodeAhead), String(result.repetition),
            ].joined(separator: "\u{1F}")
        }
    }

    /// A run's value as a number; nil where it is missing or not a number.
    package func number(_ result: RunResult, _ context: RunContext) -> Double? {
        switch value(result, context) {
        case .integer(let number): return Double(number)
        case .real(let number): return number
        default: return nil
        }
    }

    /// The field as the CSV writes it: a text column's value neutralised for spreadsheets
    /// (`SpreadsheetText`), which `ResultsFile` undoes; a number as it is.
    func text(_ result: RunResult, _ context: RunContext) -> String {
        let text = Self.text(value(result, context), unit: unit)
        return unit == .text ? SpreadsheetText.neutralised(text) : text
    }

    static func text(_ value: Value, unit: Unit) -> String {
        switch value {
        case .text(let text): return text
        case .integer(let number): return String(number)
        case .real(let number):
            switch unit {
            case .ratio: return String(format: "%.3f", number)
            default: return String(format: "%.6f", number)
            }
        case .boolean(let flag): return flag ? "true" : "false"
        case .missing: return ""
        }
    }
}
