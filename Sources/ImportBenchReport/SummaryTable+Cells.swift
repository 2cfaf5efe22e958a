import Foundation
import ImportBenchCore

extension SummaryTable {
    /// One declared column of the table: its headings and, per strategy, its cells, folded from the
    /// repetitions as the column's `TableSummary` says.
    struct TableCells {
        let column: ResultColumn
        let table: ResultColumn.TableColumn
        let results: [RunResult]
        private let repeated: Bool
        /// The median of the column over the runs of each role a ratio is taken to.
        private let roleMedians: [(heading: String, median: Double?)]

        init(column: ResultColumn, table: ResultColumn.TableColumn, results: [RunResult]) {
            self.column = column
            self.table = table
            self.results = results
            repeated = results.contains { $0.repetition > 1 }
            guard case .medianWithRatios(let roles) = table.summary else {
                roleMedians = []
                return
            }
            let values = { (runs: [RunResult]) in Self.numbers(column, runs, among: results) }
            roleMedians = roles.map { role in
                let runs = results.filter { $0.role == role }
                let name = runs.first?.strategy ?? role.title
                return ("x \(name)", runs.isEmpty ? nil : SummaryTable.median(values(runs)))
            }
        }

        var headings: [String] {
            switch table.summary {
            case .medianWithRatios: return [table.heading + (repeated ? " (median, min-max)" : "")] + roleMedians.map(\.heading)
            default: return [table.heading]
            }
        }

        func cells(for runs: [RunResult]) -> [String] {
            let values = Self.numbers(column, runs, among: results)
            switch table.summary {
            case .count:
                return [values.first.map { SummaryTable.count(Int($0)) } ?? "-"]
            case .medianWithRatios:
                let middle = SummaryTable.median(values)
                var text = SummaryTable.seconds(middle)
                if repeated, let low = values.min(), let high = values.max() {
                    text += " (\(SummaryTable.seconds(low))-\(SummaryTable.seconds(high)))"
                }
                return [text]
                    + roleMedians.map { role in
                        role.median.map { $0 > 0 ? String(format: "%.2f", middle / $0) : "-" } ?? "-"
                    }
            case .worstMegabytes:
                return [String(format: "%.1f", (values.max() ?? 0) / 1_048_576)]
            case .worstMilliseconds:
                return [values.max().map { SummaryTable.seconds($0 * 1000) } ?? "-"]
            case .verdict:
                let all = runs.allSatisfy { run in column.value(run, ResultColumn.RunContext(of: run, among: results)) == .boolean(true) }
                return [all ? "yes" : "NO"]
            }
        }

        /// The column's numeric values over `runs`, in order; a run without one is left out.
        private static func numbers(_ column: ResultColumn, _ runs: [RunResult], among results: [RunResult]) -> [Double] {
            runs.compactMap { run in
                switch column.value(run, ResultColumn.RunContext(of: run, among: results)) {
                case .integer(let number): return Double(number)
                case .real(let number): return number
                default: return nil
                }
            }
        }
    }
}
