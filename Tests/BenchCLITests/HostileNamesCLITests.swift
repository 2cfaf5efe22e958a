import Foundation
import Testing

/// Issue 47, item 5, through the built binary: a mapping named as an attack on a spreadsheet and on
/// GitHub's Markdown, run to a CSV, then compared, reported and exported.
@Suite("Hostile names through bench run, compare, report and export")
struct HostileNamesCLITests {
    static func bench(_ arguments: [String]) throws -> (status: Int32, output: String) { try IsolatedRunTests.bench(arguments) }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The orders example's mapping under the name `name`, in `directory` as `file`.
    static func mapping(named name: String, in directory: URL, file: String = "mapping.yml") throws -> String {
        let original = try String(contentsOf: root.appendingPathComponent("Scenarios/examples/orders/mapping.yml"), encoding: .utf8)
        let quoted = "'" + name.replacingOccurrences(of: "'", with: "''") + "'"
        let renamed = original.replacingOccurrences(of: "\nname: orders\n", with: "\nname: \(quoted)\n")
        try #require(renamed != original)
        let path = directory.appendingPathComponent(file).path
        try renamed.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Markdown with its escaped characters taken out: what is left of `|`, `[`, `]`, `!`, backticks, `<`, `>`.
    static func markup(_ text: some StringProtocol) -> String {
        var left = ""
        var rest = Substring(text)
        while let character = rest.popFirst() {
            if character == "\\" {
                _ = rest.popFirst()
            } else if "|[]!`<>".contains(character) {
                left.append(character)
            }
        }
        return left
    }

    @Test("a mapping named =HYPERLINK(...)|![x](y): a text cell in the CSV, the same name to compare and export, inert Markdown")
    func hostileMapping() throws {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let name = "=HYPERLINK(\"http://x\")|![x](y)<b>"
        let mapping = try Self.mapping(named: name, in: directory, file: "m|![i](u).yml")
        let payload = Self.root.appendingPathComponent("Scenarios/examples/orders/orders.json").path
        let base = directory.appendingPathComponent("base.csv").path
        let current = directory.appendingPathComponent("current.csv").path
        let common = ["run", "--mapping", mapping, "--payload", payload, "--quiet"]
        let ran = try Self.bench(common + ["--strategy", "naive,upsert", "--csv", base])
        try #require(ran.status == 0, "\(ran.output)")

        // The CSV: the scenario after a quote, as text; the counts as numbers.
        let rows = try RunCommandEndToEndTests.csvRows(base)
        #expect(rows.count == 3 && rows.allSatisfy { $0["scenario"] == "'" + name }, "\(rows.map { $0["scenario"] ?? "?" })")
        #expect(rows.allSatisfy { $0["fetch_count"].flatMap(Int.init) != nil })

        // compare reads the name back as it was, and its Markdown shows it without markup.
        let same = try Self.bench(["compare", base, base])
        #expect(same.status == 0, "\(same.output)")
        try #require(try Self.bench(common + ["--strategy", "naive", "--csv", current]).status == 0)
        let compared = try Self.bench(["compare", base, current, "--counts-only"])
        #expect(compared.status == 2, "\(compared.output)")
        let missing = try #require(compared.output.split(separator: "\n").first { $0.contains("missing from the current run") })
        #expect(missing.contains(#"=HYPERLINK("http://x")\|\!\[x\](y)&lt;b&gt; upsert recorded batch 1000"#), "\(missing)")
        #expect(Self.markup(compared.output).isEmpty, "\(compared.output)")

        // export and report read the name as it was.
        let exported = try Self.bench(["export", base, "--format", "bencher"])
        #expect(exported.status == 0, "\(exported.output)")
        let object = try JSONSerialization.jsonObject(with: Data(exported.output.utf8)) as? [String: Any]
        #expect(object?.keys.contains("\(name) upsert recorded batch 1000") == true, "\(object?.keys.sorted() ?? [])")
        let page = directory.appendingPathComponent("report.html").path
        let reported = try Self.bench(["report", base, "--out", page])
        #expect(reported.status == 0, "\(reported.output)")
        #expect(try String(contentsOfFile: page, encoding: .utf8).contains("=HYPERLINK(&quot;http://x&quot;)|![x](y)&lt;b&gt;"))

        // run's own Markdown: its header names the mapping's file, shown as written.
        let markdown = try Self.bench(
            common + ["--strategy", "naive", "--format", "markdown", "--csv", directory.appendingPathComponent("md.csv").path])
        #expect(markdown.status == 0, "\(markdown.output)")
        let quoted = markdown.output.split(separator: "\n").filter { $0.hasPrefix("> ") }
        #expect(quoted.contains { $0.contains(#"m\|\!\[i\](u).yml"#) }, "\(markdown.output)")
        #expect(quoted.allSatisfy { Self.markup($0.dropFirst(2)).isEmpty }, "\(quoted)")
        let table = markdown.output.split(separator: "\n").filter { $0.hasPrefix("|") }
        #expect(!table.isEmpty && table.allSatisfy { Self.markup($0).allSatisfy { $0 == "|" } }, "\(table)")
    }

    @Test("a hand-edited CSV whose strategy is =x, 'x, +1 or @SUM(A1): compare's table shows each as written, in one cell")
    func hostileStrategyRows() throws {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let recorded = directory.appendingPathComponent("recorded.csv").path
        let made = try Self.bench(["run", "--scenario", "products", "--scale", "0.02", "--strategy", "naive", "--quiet", "--csv", recorded])
        try #require(made.status == 0, "\(made.output)")
        let text = try String(contentsOfFile: recorded, encoding: .utf8)
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: true)
        let header = lines[0].split(separator: ",").map(String.init)
        let fetches = try #require(header.firstIndex(of: "fetch_count"))
        let naive = try #require(lines.first { $0.contains(",naive,") })
        // Each name as bench writes it (a would-be formula after a quote), the same row otherwise;
        // the current file has one fetch more in each.
        let names = ["=x", "'x", "+1", "@SUM(A1)", "|", "![img](u)"]
        func file(_ extraFetch: Int) -> String {
            let rows = names.map { name -> String in
                var fields = RunCommandEndToEndTests.fields(naive)
                fields[1] = name.first.map { "=+-@'".contains($0) } == true ? "'" + name : name
                fields[fetches] = String(Int(fields[fetches])! + extraFetch)
                return fields.map { $0.contains(where: { ",\"".contains($0) }) ? "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : $0 }
                    .joined(separator: ",")
            }
            return ([String(lines[0])] + rows).joined(separator: "\r\n") + "\r\n"
        }
        let base = directory.appendingPathComponent("base.csv").path
        let current = directory.appendingPathComponent("current.csv").path
        try file(0).write(toFile: base, atomically: true, encoding: .utf8)
        try file(1).write(toFile: current, atomically: true, encoding: .utf8)
        let compared = try Self.bench(["compare", base, current, "--counts-only"])
        #expect(compared.status == 2, "\(compared.output)")
        let rows = compared.output.split(separator: "\n").filter { $0.hasPrefix("| products") }
        #expect(rows.count >= names.count, "\(compared.output)")
        #expect(rows.allSatisfy { Self.markup($0) == "|||||||" }, "\(rows)")
        for shown in ["=x", "'x", "+1", "@SUM(A1)", "\\|", "\\!\\[img\\](u)"] {
            #expect(rows.contains { $0.hasPrefix("| products \(shown) 0.02x batch") }, "\(shown): \(rows)")
        }
        let exported = try Self.bench(["export", current, "--format", "bencher"])
        let object = try JSONSerialization.jsonObject(with: Data(exported.output.utf8)) as? [String: Any]
        #expect(Set(object?.keys.map { String($0) } ?? []) == Set(names.map { "products \($0) 0.02x batch 1000" }), "\(exported.output)")
    }
}
