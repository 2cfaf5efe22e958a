import Foundation
import ImportBenchCore
import ImportBenchStore
import Testing

/// bench run meets what it did not make at a store's path: it stops before importing, naming it,
/// and leaves it byte-identical.
@Suite("Files bench did not make")
struct PreciousFilesTests {
    enum Precious: String, CaseIterable {
        case directory, textFile, foreignDatabase

        func make(at path: String) throws {
            switch self {
            case .directory:
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
                try Data("keep me".utf8).write(to: URL(fileURLWithPath: path + "/precious.txt"))
            case .textFile:
                try Data("notes I wrote\n".utf8).write(to: URL(fileURLWithPath: path))
            case .foreignDatabase:
                let store = try StoreConnection(path: path)
                try store.execute("PRAGMA application_id = 1234; CREATE TABLE mine (x); INSERT INTO mine VALUES (42)")
            }
        }
    }

    @Test(
        "a directory, a text file or another application's database at --db's path: non-zero before importing, left as it was",
        arguments: Precious.allCases)
    func refused(precious: Precious) throws {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("d-naive.sqlite").path
        try precious.make(at: path)
        let before = try Self.snapshot(directory)
        let csv = directory.appendingPathComponent("r.csv").path
        let result = try IsolatedRunTests.bench([
            "run", "--scale", "0.02", "--strategy", "naive", "--db", directory.appendingPathComponent("d").path, "--csv", csv, "--quiet",
        ])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("will not write a store at '\(path)'"), "\(result.output)")
        #expect(try Self.snapshot(directory) == before)
        #expect(!FileManager.default.fileExists(atPath: csv))
    }

    @Test("an empty --db, or one naming a directory, is refused as an argument")
    func badDB() throws {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for db in ["", directory.path, directory.path + "/"] {
            let result = try IsolatedRunTests.bench(["run", "--scale", "0.02", "--strategy", "naive", "--db", db, "--quiet"])
            #expect(result.status == 64, "--db '\(db)': \(result.output)")
        }
    }

    @Test("a second bench on a locked store stops at once, naming the first")
    func locked() throws {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("s.sqlite").path
        let first = try StoreLock(storePath: store)
        #expect {
            _ = try StoreLock(storePath: store)
        } throws: { error in
            (error as? RunError)?.refusal == .storeInUse(path: store, holder: "bench process \(getpid())")
        }
        withExtendedLifetime(first) {}
    }

    /// Every entry under `url` with its bytes (a directory's as nil).
    static func snapshot(_ url: URL) throws -> [String: Data?] {
        var entries: [String: Data?] = [:]
        for name in try FileManager.default.subpathsOfDirectory(atPath: url.path) {
            let path = url.appendingPathComponent(name).path
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            entries[name] = isDirectory.boolValue ? nil : FileManager.default.contents(atPath: path)
        }
        return entries
    }
}

@Suite("seed-db and what it did not make")
struct SeedDBPreciousTests {
    @Test("seed-db --out over a text file or another application's database: exit 1, left as it was")
    func refused() throws {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for precious in [PreciousFilesTests.Precious.textFile, .foreignDatabase] {
            let out = directory.appendingPathComponent("\(precious.rawValue).sqlite").path
            try precious.make(at: out)
            let before = FileManager.default.contents(atPath: out)
            let result = try IsolatedRunTests.bench(["seed-db", "--scenario", "products", "--scale", "0.01", "--out", out])
            #expect(result.status == 1, "\(result.output)")
            #expect(result.output.contains("will not write a store at '\(out)'"), "\(result.output)")
            #expect(FileManager.default.contents(atPath: out) == before)
        }
    }
}

@Suite("Store locks")
struct StoreLockTests {
    @Test("a symbolic link where the lock file goes is neither followed nor its target touched")
    func linkRefused() throws {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let precious = directory.appendingPathComponent("notes.txt").path
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: precious))
        let store = directory.appendingPathComponent("s.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: store + ".bench-lock", withDestinationPath: precious)
        #expect { _ = try StoreLock(storePath: store) } throws: { ($0 as? RunError)?.refusal != nil }
        #expect(FileManager.default.contents(atPath: precious) == Data("keep me".utf8))
    }
}
