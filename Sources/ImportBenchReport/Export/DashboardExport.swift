import Foundation

/// A results CSV in the formats of the dashboards teams already run, so bench's numbers are
/// tracked over time where the rest are: Bencher's Metric Format (per run a benchmark, per metric
/// a measure with its value and the repetitions' range) and github-action-benchmark's
/// `customSmallerIsBetter` list. Exported: the timed and memory metrics and the cost counts, each
/// lower-is-better; what a run wrote (records, digest) is no trend to chart.
package struct DashboardExport {
    package enum Format: String, CaseIterable, Sendable {
        case bencher
        case githubAction = "github-action"
    }

    /// One metric of one run: the median of its repetitions (a count: the first), and their range.
    package struct Point: Equatable, Sendable {
        /// The run, as compare names its row: `chat naive 1x batch 1000`.
        package let benchmark: String
        package let metric: String
        package let unit: String
        package let value: Double
        package let lower: Double
        package let upper: Double
    }

    package let points: [Point]

    /// The metrics exported, in the CSV's order: every declared metric with a direction, and wall
    /// time over the C reference.
    static var metrics: [ResultColumn] {
        ResultColumns.columns.filter { $0.lowerIsBetter == true && $0.unit.isNumeric }
    }

    /// Reads `paths` through the results contract (`ResultsFile(results:)`). A run found in two
    /// files is refused: a dashboard would keep one of them without saying which.
    package init(paths: [String]) throws {
        let names = Self.metrics.map(\.name)
        var points: [Point] = []
        var fileOfRun: [ResultTable.Key: String] = [:]
        for path in paths {
            let table = try ResultTable(path: path, columns: names)
            for key in table.rows.keys.sorted() {
                guard let row = table.rows[key] else { continue }
                if let earlier = fileOfRun[key] {
                    throw ResultsInputError.malformed(
                        file: path, location: nil, expected: "each run in one file only", found: "\(key) again, already in \(earlier)")
                }
                fileOfRun[key] = path
                let samples = table.samples[key] ?? [:]
                for column in Self.metrics {
                    let series = samples[column.name] ?? row[column.name].flatMap(Double.init).map { [$0] } ?? []
                    guard !series.isEmpty else { continue }
                    points.append(
                        Point(
                            benchmark: key.description, metric: column.name, unit: Self.unit(of: column), value: SummaryTable.median(series),
                            lower: series.min() ?? 0, upper: series.max() ?? 0))
                }
                for ratio in [ResultTable.wallPerCReference, ResultTable.cpuPerCReference] {
                    guard let ratios = samples[ratio], !ratios.isEmpty else { continue }
                    points.append(
                        Point(
                            benchmark: key.description, metric: ratio, unit: "x C reference",
                            value: SummaryTable.median(ratios), lower: ratios.min() ?? 0, upper: ratios.max() ?? 0))
                }
            }
        }
        self.points = points
    }

    static func unit(of column: ResultColumn) -> String {
        switch column.unit {
        case .seconds: return "s"
        case .bytes: return "bytes"
        case .ratio: return "x"
        case .integer: return "count"
        case .text, .boolean: return ""
        }
    }

    /// The export as JSON text, keys sorted so the same CSV gives the same bytes.
    package func json(_ format: Format) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data: Data
        switch format {
        case .bencher:
            // Measures are named by slug (at most 64 characters): the metric's CSV name in kebab case.
            var benchmarks: [String: [String: BencherMetric]] = [:]
            for point in points {
                benchmarks[point.benchmark, default: [:]][Self.slug(point.metric)] = BencherMetric(
                    value: point.value, lowerValue: point.lower, upperValue: point.upper)
            }
            data = try encoder.encode(benchmarks)
        case .githubAction:
            data = try encoder.encode(
                points.map { point in
                    GitHubActionEntry(
                        name: "\(point.benchmark) - \(point.metric)", unit: point.unit, value: point.value,
                        range: "± \(Self.number((point.upper - point.lower) / 2))")
                })
        }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// `wall_s / c_reference_s` becomes `wall-s-per-c-reference-s`.
    static func slug(_ metric: String) -> String {
        var slug = metric.replacingOccurrences(of: " / ", with: " per ").lowercased()
        slug = String(slug.map { $0.isLetter || $0.isNumber ? $0 : "-" })
        while slug.contains("--") { slug = slug.replacingOccurrences(of: "--", with: "-") }
        return String(slug.prefix(64))
    }

    static func number(_ value: Double) -> String {
        String(format: "%.6g", value)
    }

    /// Bencher Metric Format: a metric's value and optional bounds.
    struct BencherMetric: Encodable {
        let value: Double
        let lowerValue: Double
        let upperValue: Double

        enum CodingKeys: String, CodingKey {
            case value
            case lowerValue = "lower_value"
            case upperValue = "upper_value"
        }
    }

    /// github-action-benchmark's custom tool entry.
    struct GitHubActionEntry: Encodable {
        let name: String
        let unit: String
        let value: Double
        let range: String
    }
}
