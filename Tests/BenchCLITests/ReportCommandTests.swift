import ArgumentParser
import Foundation
import ImportBenchCore
import Testing

@testable import ImportBenchCLI

@Suite("bench report")
struct ReportCommandTests {
    private func parseReport(_ arguments: [String]) throws -> ReportCommand {
        try #require(try BenchCommand.parseAndCheck(["report"] + arguments) as? ReportCommand)
    }

    @Test("--help explains every option and both formats")
    func help() {
        let help = BenchCommand.helpMessage(for: ReportCommand.self)
        for text in ["--out", "--format", "html", "svg", "--probe-reads", "report.html", "chat-time.svg"] {
            #expect(help.contains(text), "help lacks \(text)")
        }
    }

    @Test("several CSVs, a format and an output")
    func parsing() throws {
        let command = try parseReport(["a.csv", "b.csv", "--format", "svg", "--out", "charts"])
        #expect(command.files == ["a.csv", "b.csv"])
        #expect(command.format == .svg)
        #expect(command.out == "charts")
        #expect(try parseReport(["a.csv"]).format == .html)
    }

    @Test("no CSV or an unknown format is refused")
    func refused() {
        #expect(throws: (any Error).self) { _ = try BenchCommand.parseAndCheck(["report"]) }
        #expect(throws: (any Error).self) { _ = try BenchCommand.parseAndCheck(["report", "a.csv", "--format", "pdf"]) }
    }

    @Test("a missing CSV is refused with exit 5 (results refused, not a regression) and a message naming it")
    func missingFile() throws {
        let command = try parseReport(["/nonexistent/results.csv", "--out", "/nonexistent/report.html"])
        let error = #expect(throws: CommandFailure.self) { try command.run() }
        #expect(error?.message.contains("/nonexistent/results.csv") == true)
        #expect(error?.exitCode == 5)
    }

    @Test("a real sweep's CSV becomes a page with its charts, and SVG files")
    func endToEnd() throws {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = directory.appendingPathComponent("sweep.csv").path
        let sweep = try #require(
            try BenchCommand.parseAndCheck([
                "run", "--strategy", "prewarm,upsert", "--scale", "0.02,0.04", "--csv", csv, "--quiet", "--no-isolate",
            ]) as? RunCommand)
        try sweep.run()

        let html = directory.appendingPathComponent("out/report.html").path
        try parseReport([csv, "--out", html]).run()
        let page = try String(contentsOfFile: html, encoding: .utf8)
        // The answer's chart of multiples of the ceiling by scale, then time, fetches and memory.
        #expect(page.components(separatedBy: "<svg ").count - 1 == 4)
        #expect(page.contains("<table id=\"answer-table\""))
        #expect(page.contains("The winner does not change with scale") || page.contains("is fastest up to 0.02x; from 0.04x"))
        #expect(page.contains("prewarm (k = "))
        #expect(page.contains(">upsert: no fetches</text>"))

        let charts = directory.appendingPathComponent("charts").path
        try parseReport([csv, "--format", "svg", "--out", charts]).run()
        let files = try FileManager.default.contentsOfDirectory(atPath: charts).sorted()
        #expect(files == ["chat-ceiling-multiple-by-scale.svg", "chat-fetches.svg", "chat-memory.svg", "chat-time.svg"])
    }

    @Test(
        "two processes render the same CSV to the same bytes: no order comes from a hash seed")
    func sameBytesAcrossProcesses() throws {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = directory.appendingPathComponent("sweep.csv").path
        let sweep = try IsolatedRunTests.bench([
            "run", "--scenario", "products", "--scale", "0.02,0.04", "--batch-size", "100,all", "--csv", csv, "--quiet", "--no-isolate",
        ])
        try #require(sweep.status == 0, "\(sweep.output)")
        var pages: [String] = []
        for name in ["a.html", "b.html"] {
            let page = directory.appendingPathComponent(name).path
            #expect(try IsolatedRunTests.bench(["report", csv, "--out", page]).status == 0)
            pages.append(try String(contentsOfFile: page, encoding: .utf8))
        }
        #expect(pages[0].contains("<svg "))
        #expect(pages[0] == pages[1])
    }
}
