import Foundation
import Testing

/// Results of a strategy bench does not know (a plug-in's, recorded by its own executable) are
/// read, compared, drawn and exported by the plain `bench` like the built-ins'.
@Suite("A plug-in's results in bench's commands")
struct PluginResultsTests {
    @Test("compare, report and export take rows of a strategy no catalog of theirs holds")
    func unknownStrategyRows() throws {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let recorded = directory.appendingPathComponent("recorded.csv").path
        let made = try IsolatedRunTests.bench([
            "run", "--scenario", "products", "--scale", "0.02", "--strategy", "naive", "--quiet", "--csv", recorded,
        ])
        try #require(made.status == 0, "\(made.output)")
        // The rows a plug-in's executable would have written: its strategy's name where naive's was.
        let plugIn = directory.appendingPathComponent("plugin.csv").path
        try String(contentsOfFile: recorded, encoding: .utf8).replacingOccurrences(of: ",naive,", with: ",my-importer,")
            .write(toFile: plugIn, atomically: true, encoding: .utf8)
        #expect(try RunCommandEndToEndTests.csvRows(plugIn).contains { $0["strategy"] == "my-importer" })

        let compared = try IsolatedRunTests.bench(["compare", plugIn, plugIn])
        #expect(compared.status == 0, "\(compared.output)")
        #expect(compared.output.contains("rows compared"), "\(compared.output)")
        let page = directory.appendingPathComponent("report.html").path
        let reported = try IsolatedRunTests.bench(["report", plugIn, "--out", page])
        #expect(reported.status == 0, "\(reported.output)")
        #expect(try String(contentsOfFile: page, encoding: .utf8).contains("my-importer"))
        let json = directory.appendingPathComponent("bencher.json").path
        let exported = try IsolatedRunTests.bench(["export", plugIn, "--format", "bencher", "--out", json])
        #expect(exported.status == 0, "\(exported.output)")
        #expect(try String(contentsOfFile: json, encoding: .utf8).contains("products my-importer"))
    }
}
