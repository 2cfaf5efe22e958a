import Foundation
import ImportBenchStore
import Testing

/// `--pragma`: SQLite settings swept like the batch size, applied to the store, named in the CSV,
/// matched on by compare; a name or value SQLite would not take is one line naming what it takes.
@Suite("SQLite settings as a dimension (--pragma)")
struct PragmaSweepTests {
    @Test("two settings of two values each run the four combinations, valid, each named in the CSV; compare matches them")
    func sweep() throws {
        let folder = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let csv = folder.appendingPathComponent("sweep.csv").path
        let ran = try IsolatedRunTests.bench([
            "run", "--scenario", "chat", "--scale", "0.02x", "--strategy", "naive,upsert", "--quiet", "--csv", csv,
            "--pragma", "temp_store=default,memory", "--pragma", "cache_size=-2000,-65536",
        ])
        #expect(ran.status == 0, "\(ran.output)")
        let rows = try RunCommandEndToEndTests.csvRows(csv)
        #expect(rows.count == 12, "2 strategies and the ceiling, in 4 combinations")
        #expect(rows.allSatisfy { $0["valid"] == "true" })
        #expect(
            Set(rows.map { $0["pragmas"] ?? "" }) == [
                "temp_store=default;cache_size=-2000", "temp_store=default;cache_size=-65536",
                "temp_store=memory;cache_size=-2000", "temp_store=memory;cache_size=-65536",
            ])
        #expect(Set(rows.map { $0["digest"] ?? "" }).count == 1, "the settings change how, not what")
        let compared = try IsolatedRunTests.bench(["compare", csv, csv])
        #expect(compared.status == 0 && compared.output.contains("12 rows compared"), "\(compared.output)")
    }

    @Test("a file-level setting reaches the store: page_size 8192 in the kept store")
    func applied() throws {
        let folder = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("store.sqlite").path
        let ran = try IsolatedRunTests.bench([
            "run", "--scenario", "products", "--scale", "0.02x", "--strategy", "upsert", "--quiet", "--db", db,
            "--csv", folder.appendingPathComponent("r.csv").path, "--pragma", "page_size=8192",
        ])
        #expect(ran.status == 0, "\(ran.output)")
        let store = try StoreConnection(path: folder.appendingPathComponent("store-upsert.sqlite").path)
        #expect(try store.prepare("PRAGMA page_size").scalarInt64() == 8192)
    }

    @Test(
        "an unknown name or a value its setting does not take is refused in one line saying what it takes",
        arguments: [
            ("busy_timeout=5", "temp_store, cache_size, mmap_size, page_size"),
            ("page_size=1000", "a power of two from 512 to 65536"),
            ("temp_store=fast", "default, file or memory"),
            ("cache_size", "expected NAME=VALUE"),
        ])
    func refused(argument: String, words: String) throws {
        let ran = try IsolatedRunTests.bench(["run", "--scenario", "products", "--scale", "0.02x", "--pragma", argument])
        #expect(ran.status == 64, "\(ran.output)")
        #expect(ran.output.contains(words), "\(ran.output)")
    }

    /// A given seed store has one page size: a sweep over page_size could adopt it in one setting only.
    @Test("--seed-db with a page_size sweep is refused before anything runs")
    func seedStoreWithPageSizeSweep() throws {
        let ran = try IsolatedRunTests.bench([
            "run", "--scenario", "products", "--scale", "0.02x", "--strategy", "seed-copy", "--seed-db", "/nonexistent/seed.sqlite",
            "--pragma", "page_size=4096,8192",
        ])
        #expect(ran.status == 64, "\(ran.output)")
        #expect(ran.output.contains("has one page size, and --pragma sweeps page_size"), "\(ran.output)")
    }
}
