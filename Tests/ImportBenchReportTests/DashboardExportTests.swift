import Foundation
import ImportBenchCore
import ImportBenchReport
import Testing

@Suite("Dashboard exports")
struct DashboardExportTests {
    /// Three repetitions of naive and the ceiling, naive's walls 2.0, 2.4 and 2.2 s over C references of 0.4 s.
    private func csv() throws -> (TemporaryFolder, String) {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("results.csv").path
        let results = zip(1...3, [2.0, 2.4, 2.2]).flatMap { repetition, wall in
            [("naive", wall), ("ceiling", 0.5)].map { name, seconds in
                var result = sampleResult(strategy: name, wall: seconds, repetition: repetition)
                result.cReferenceSeconds = 0.4
                return result
            }
        }
        try CSVReport.write(results, to: path)
        return (folder, path)
    }

    private func parse(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    @Test("Bencher Metric Format: per run a benchmark, per metric a measure slug with a number value and its bounds")
    func bencher() throws {
        let (folder, path) = try csv()
        defer { withExtendedLifetime(folder) {} }
        let json = try #require(try parse(DashboardExport(paths: [path]).json(.bencher)) as? [String: Any])
        #expect(Set(json.keys) == ["chat naive 1x batch 1000", "chat ceiling 1x batch 1000"])
        for (benchmark, measures) in json {
            let measures = try #require(measures as? [String: Any], "\(benchmark)")
            for (slug, metric) in measures {
                #expect(slug.count <= 64 && slug.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }, "\(slug)")
                let fields = try #require(metric as? [String: Any])
                #expect(Set(fields.keys) == ["value", "lower_value", "upper_value"])
                let numbers = try ["lower_value", "value", "upper_value"].map { try #require(fields[$0] as? Double, "\(slug) \($0)") }
                #expect(numbers == numbers.sorted(), "\(benchmark) \(slug): \(numbers)")
            }
        }
        let naive = try #require(json["chat naive 1x batch 1000"] as? [String: [String: Double]])
        #expect(naive["wall-s"] == ["value": 2.2, "lower_value": 2.0, "upper_value": 2.4])
        #expect(naive["fetch-count"]?["value"] == 120)
        let perReference = try #require(naive["wall-s-per-c-reference-s"]?["value"])
        #expect(abs(perReference - 5.5) < 1e-9)
    }

    @Test("github-action-benchmark customSmallerIsBetter: a list of name, unit, value and range, nothing else")
    func githubAction() throws {
        let (folder, path) = try csv()
        defer { withExtendedLifetime(folder) {} }
        let list = try #require(try parse(DashboardExport(paths: [path]).json(.githubAction)) as? [[String: Any]])
        #expect(!list.isEmpty)
        for entry in list {
            #expect(Set(entry.keys) == ["name", "unit", "value", "range"])
            #expect(entry["name"] is String && entry["unit"] is String && entry["range"] is String)
            #expect(entry["value"] is Double || entry["value"] is Int)
            #expect((entry["range"] as? String)?.hasPrefix("± ") == true)
        }
        let wall = try #require(list.first { $0["name"] as? String == "chat naive 1x batch 1000 - wall_s" })
        #expect(wall["unit"] as? String == "s")
        #expect(wall["value"] as? Double == 2.2)
        #expect(wall["range"] as? String == "± 0.2")
        #expect(Set(list.compactMap { $0["name"] as? String }).count == list.count, "names are unique")
    }

    @Test("the same CSV gives the same bytes; a CSV that breaks the contract is refused")
    func deterministicAndStrict() throws {
        let (folder, path) = try csv()
        let export = try DashboardExport(paths: [path])
        #expect(try export.json(.bencher) == DashboardExport(paths: [path]).json(.bencher))
        let broken = try folder.write("scenario,strategy\nchat,naive\n", to: "broken.csv")
        #expect(throws: ResultsInputError.self) { _ = try DashboardExport(paths: [broken]) }
        // The same runs in two files: which to keep is not the export's to guess.
        let twice = #expect(throws: ResultsInputError.self) { _ = try DashboardExport(paths: [path, path]) }
        #expect(twice?.description.contains("already in") == true)
    }
}
