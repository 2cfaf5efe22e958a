import Foundation
import ImportBenchStore
import Testing

@testable import ImportBenchCore
@testable import ImportBenchStrategies

/// bench replaces only stores it made: whatever else is at a store's path survives untouched.
@Suite("Store ownership")
struct StoreOwnershipTests {
    /// Puts something at `path` in a fresh directory and returns the bytes it holds, if a file.
    enum Something: String, CaseIterable, CustomStringConvertible {
        case directory, textFile, foreignDatabase, plainDatabase, symbolicLink, fifo, strayWAL
        var description: String { rawValue }

        var expected: String {
            switch self {
            case .directory: return "a directory"
            case .textFile: return "a file that is not a SQLite database"
            case .foreignDatabase: return "a SQLite database of another application (application_id 1234)"
            case .plainDatabase: return "a SQLite database that bench did not create (it carries no application_id)"
            case .symbolicLink: return "a symbolic link"
            case .fifo: return "a special file (a FIFO, socket or device)"
            case .strayWAL: return "no database, but a wal file of one beside it"
            }
        }

        func make(at path: String, in directory: TemporaryDirectory) throws {
            switch self {
            case .directory:
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
                try Data("keep me".utf8).write(to: URL(fileURLWithPath: path + "/precious.txt"))
            case .textFile: try Data("notes I wrote\n".utf8).write(to: URL(fileURLWithPath: path))
            case .foreignDatabase, .plainDatabase:
                let store = try StoreConnection(path: path)
                if self == .foreignDatabase { try store.execute("PRAGMA application_id = 1234") }
                try store.execute("CREATE TABLE mine (x); INSERT INTO mine VALUES (42)")
            case .symbolicLink:
                let target = directory.path("target.sqlite")
                try Data("elsewhere".utf8).write(to: URL(fileURLWithPath: target))
                try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
            case .fifo: #expect(mkfifo(path, 0o644) == 0)
            case .strayWAL: try Data("wal".utf8).write(to: URL(fileURLWithPath: path + "-wal"))
            }
        }
    }

    @Test("anything bench did not make is named and left as it was", arguments: Something.allCases)
    func refused(something: Something) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("store-naive.sqlite")
        try something.make(at: path, in: directory)
        let before = try snapshot(directory.url)
        #expect(DatabaseFile.occupant(of: path) == .other(something.expected) || something == .strayWAL)
        let error = expectRefusal { try DatabaseFile.removeOwnStore(path) }
        #expect(error.map { "\($0)" }?.contains(something.expected) == true)
        #expect(try snapshot(directory.url) == before)
    }

    @Test("a store bench marked is recognised and removed with its companions; an absent one is fine")
    func ownStore() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("store.sqlite")
        #expect(DatabaseFile.occupant(of: path) == .nothing)
        try DatabaseFile.removeOwnStore(path)
        do {
            let store = try StoreConnection(path: path)
            try DatabaseFile.mark(store)
            try store.execute("PRAGMA journal_mode = WAL")
            try store.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1)")
            #expect(DatabaseFile.occupant(of: path) == .benchStore)
        }
        try DatabaseFile.removeOwnStore(path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
        #expect(DatabaseFile.occupant(of: "") == .other("an empty path"))
        // An empty file, as a run killed before its store's first commit leaves (a hot journal
        // beside it), holds nothing to lose: replaced, companions too.
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        _ = FileManager.default.createFile(atPath: path + "-journal", contents: Data("hot".utf8))
        #expect(DatabaseFile.occupant(of: path) == .emptyFile)
        try DatabaseFile.removeOwnStore(path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }

    @Test("a removal stopped after any of its steps (SIGKILL) leaves what the next run still replaces, never a WAL alone", arguments: 0...3)
    func removalStoppedHalfway(steps: Int) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("store.sqlite")
        let store = try StoreConnection(path: path)
        try DatabaseFile.mark(store)
        try store.execute("PRAGMA journal_mode = WAL")
        try store.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1)")
        _ = FileManager.default.createFile(atPath: path + "-journal", contents: Data("hot".utf8))
        // The first `steps` unlinks of a removal, as a kill between two of them leaves the files.
        for suffix in DatabaseFile.removalOrder.prefix(steps) { unlink(path + suffix) }
        #expect(DatabaseFile.occupant(of: path) == .benchStore, "after \(steps) steps")
        try DatabaseFile.removeOwnStore(path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
        withExtendedLifetime(store) {}
    }

    /// Every entry under `url` with its bytes (a directory's as nil), to compare before and after.
    private func snapshot(_ url: URL) throws -> [String: Data?] {
        var entries: [String: Data?] = [:]
        let names = try FileManager.default.subpathsOfDirectory(atPath: url.path)
        for name in names {
            let path = url.appendingPathComponent(name).path
            var status = stat()
            lstat(path, &status)
            entries[name] = (status.st_mode & S_IFMT) == S_IFREG ? FileManager.default.contents(atPath: path) : nil
        }
        return entries
    }

    @Test("an import over what a run killed before its first commit left (an empty file and a hot journal) starts afresh")
    func killedBeforeFirstCommit() throws {
        let directory = try TemporaryDirectory()
        let payload = directory.path("payload.json")
        try ProductsScenario().generate(scale: 0.01, seed: 1, to: payload)
        let store = directory.path("store.sqlite")
        _ = FileManager.default.createFile(atPath: store, contents: nil)
        _ = FileManager.default.createFile(atPath: store + "-journal", contents: Data(repeating: 7, count: 512))
        let measurement = try ImportRun(
            scenario: ProductsScenario(), payloadPath: payload, method: NaiveStrategy.self, batchSize: .occurrences(50),
            databasePath: store, checkpoint: true
        ).execute()
        #expect(measurement.occurrences > 0)
        #expect(DatabaseFile.occupant(of: store) == .benchStore)
    }
}
