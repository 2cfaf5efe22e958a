import Foundation
import Testing

/// `--decode-ahead off,on`: both ways in one run, one after the other, named in the CSV and the header,
/// matched on by compare; anything but off and on is refused in one line.
@Suite("Decoding ahead as a dimension (--decode-ahead)")
struct DecodeAheadSweepTests {
    @Test("off,on runs every strategy both ways, valid, with one digest and the same counts; compare matches the rows by it")
    func sweep() throws {
        let folder = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let csv = folder.appendingPathComponent("sweep.csv").path
        let ran = try IsolatedRunTests.bench([
            "run", "--scenario", "chat", "--scale", "0.02x", "--strategy", "prewarm,upsert", "--batch-size", "100", "--csv", csv,
            "--decode-ahead", "off,on",
        ])
        #expect(ran.status == 0, "\(ran.output)")
        #expect(ran.output.contains("decoding ahead"), "the header of the second table says so: \(ran.output)")
        let rows = try RunCommandEndToEndTests.csvRows(csv)
        #expect(rows.count == 6, "2 strategies and the ceiling, both ways")
        #expect(rows.allSatisfy { $0["valid"] == "true" })
        #expect(rows.map { $0["decode_ahead"] ?? "" }.sorted() == ["off", "off", "off", "on", "on", "on"])
        #expect(Set(rows.map { $0["digest"] ?? "" }).count == 1)
        for strategy in ["prewarm", "upsert"] {
            let both = rows.filter { $0["strategy"] == strategy }
            #expect(Set(both.map { $0["statement_count"] ?? "" }).count == 1, "\(strategy): the same statements both ways")
            #expect(both.first { $0["decode_ahead"] == "on" }?["peak_allocated_bytes"] == "")
            #expect(both.first { $0["decode_ahead"] == "off" }?["peak_allocated_bytes"]?.isEmpty == false)
        }
        let compared = try IsolatedRunTests.bench(["compare", csv, csv])
        #expect(compared.status == 0 && compared.output.contains("6 rows compared"), "\(compared.output)")
    }

    @Test("a value other than off and on, or one given twice, is refused in one line", arguments: ["yes", "on,on", "off,"])
    func refused(value: String) throws {
        let ran = try IsolatedRunTests.bench(["run", "--scenario", "products", "--scale", "0.02x", "--decode-ahead", value])
        #expect(ran.status == 64, "\(ran.output)")
        #expect(ran.output.contains("--decode-ahead"), "\(ran.output)")
    }
}
