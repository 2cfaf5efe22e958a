import Foundation
import ImportBenchCore
import ImportBenchStore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A command that breaks its store is told so (issue 47, item 5): the error names the command, the
/// store and what bench found there, SQLite's error kept whole as a value, never a bare "SQLite
/// error 1: no such table" or "its store holds ..." about a path already gone.
@Suite("What a command did to its store", .serialized)
struct CommandStoreTests {
    static let importer = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/Commands/products_naive.py").path

    /// Runs `command` as the import of a small products payload; what stopped it.
    private func stop(
        of command: String, journal: StoreSettings.Journal = .wal, in directory: TemporaryDirectory
    ) throws -> (stop: ImportStop, problem: CommandStoreProblem?, store: String) {
        let payload = directory.path("products.json")
        if !FileManager.default.fileExists(atPath: payload) { try ProductsScenario().generate(scale: 0.01, seed: 1, to: payload) }
        // A store of its own per run: what a command left at one stays there.
        let store = directory.path("store-\(UUID().uuidString.prefix(8)).sqlite")
        let run = ImportRun(
            scenario: ProductsScenario(), payloadPath: payload,
            method: try CommandMethod(name: "breaker", commandLine: command).method(timeout: 60, counter: nil),
            batchSize: .occurrences(100), databasePath: store, settings: StoreSettings(journal: journal))
        let stop = try expectStop { _ = try run.execute() }
        #expect(stop.stage == .command)
        guard case .method(.commandStore(let name, let path, let problem)) = stop.cause else {
            Issue.record("expected what the command did to its store, got \(stop.cause)")
            return (stop, nil, store)
        }
        #expect(name == "breaker" && path == store)
        // The sentence names the command and the store, and claims nothing about what it holds.
        #expect(stop.description.contains("breaker") && stop.description.contains(store), "\(stop)")
        #expect(!stop.description.contains("its store holds"), "\(stop)")
        return (stop, problem, store)
    }

    @Test("deleted, replaced, emptied, overwritten: found before SQLite opens the path (which would create a store there)")
    func fileLevel() throws {
        let directory = try TemporaryDirectory()
        let deleted = try stop(of: #"rm -f "$BENCH_DB""#, in: directory)
        #expect(deleted.problem == .deleted)
        #expect(!FileManager.default.fileExists(atPath: deleted.store), "bench created a store where the command deleted it")
        #expect(deleted.stop.description.contains("deleted its store"))
        let replaced = try stop(
            of: #"python3 '\#(Self.importer)' && cp "$BENCH_DB" "$BENCH_DB.new" && mv "$BENCH_DB.new" "$BENCH_DB""#, in: directory)
        #expect(replaced.problem == .replaced)
        #expect(try stop(of: #": > "$BENCH_DB""#, in: directory).problem == .emptied)
        let overwritten = try stop(of: #"printf 'not a database at all, no' | dd of="$BENCH_DB" conv=notrunc 2>/dev/null"#, in: directory)
        #expect(overwritten.problem == .overwritten(found: "a file that is not a SQLite database"))
        let directoryThere = try stop(of: #"rm -f "$BENCH_DB" && mkdir "$BENCH_DB""#, in: directory)
        #expect(directoryThere.problem == .notAFile(.directory))
        try? FileManager.default.removeItem(atPath: directoryThere.store)
    }

    @Test("a -wal that is a symbolic link, or a hard link to another file: named, and the store not opened through it")
    func companions() throws {
        let directory = try TemporaryDirectory()
        let elsewhere = directory.path("elsewhere")
        try Data().write(to: URL(fileURLWithPath: elsewhere))
        let symbolic = try stop(of: #"python3 '\#(Self.importer)' && ln -s '\#(elsewhere)' "$BENCH_DB-wal""#, in: directory)
        #expect(symbolic.problem == .companion(suffix: "-wal", found: .symbolicLink(target: elsewhere)))
        #expect(symbolic.stop.description.contains("a symbolic link to \(elsewhere) as its store's -wal"), "\(symbolic.stop)")
        let hard = try stop(of: #"python3 '\#(Self.importer)' && ln '\#(elsewhere)' "$BENCH_DB-journal""#, in: directory)
        #expect(hard.problem == .companion(suffix: "-journal", found: .hardLinked(links: 2)))
    }

    @Test("corrupt: SQLite's error kept whole, with its code, as the command's doing")
    func unreadable() throws {
        let directory = try TemporaryDirectory()
        // Every page but the first (the schema) overwritten with garbage after a complete import.
        let corrupt = try stop(
            of: #"python3 '\#(Self.importer)' && python3 -c "import os; f = open(os.environ['BENCH_DB'], 'r+b'); "#
                + #"f.seek(4096); f.write(b'\xa5' * (os.path.getsize(os.environ['BENCH_DB']) - 4096))""#,
            in: directory)
        guard case .unreadable(let error, let holders) = corrupt.problem else {
            Issue.record("expected an unreadable store, got \(String(describing: corrupt.problem))")
            return
        }
        #expect(error.primaryCode == 11 || error.primaryCode == 26, "\(error)")
        #expect(holders.isEmpty)
        #expect(corrupt.stop.description.contains("left its store \(corrupt.store) corrupt"), "\(corrupt.stop)")
    }

    @Test("left locked (--journal delete) by a process that is not the command's: SQLITE_BUSY, and the holder named")
    func locked() throws {
        let directory = try TemporaryDirectory()
        let request = directory.path("request")
        let ready = directory.path("ready")
        // A holder bench did not start, so it is not killed with the command's processes.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = [
            "python3", "-c",
            """
            import os, sqlite3, sys, time
            while not os.path.exists(sys.argv[1]): time.sleep(0.01)
            c = sqlite3.connect(open(sys.argv[1]).read(), isolation_level=None)
            c.execute('BEGIN EXCLUSIVE')
            open(sys.argv[2], 'w').close()
            time.sleep(120)
            """,
            request, ready,
        ]
        try holder.run()
        defer {
            kill(holder.processIdentifier, SIGKILL)
            holder.waitUntilExit()
        }
        let locked = try stop(
            of: #"python3 '\#(Self.importer)' && printf '%s' "$BENCH_DB" > '\#(request).tmp' && mv '\#(request).tmp' '\#(request)' && "#
                + #"while [ ! -e '\#(ready)' ]; do sleep 0.02; done"#,
            journal: .delete, in: directory)
        guard case .unreadable(let error, let holders) = locked.problem else {
            Issue.record("expected a locked store, got \(String(describing: locked.problem))")
            return
        }
        #expect(error.isBusy, "\(error)")
        #expect(holders.map(\.pid) == [holder.processIdentifier], "\(holders)")
        #expect(locked.stop.description.contains("left its store \(locked.store) locked"), "\(locked.stop)")
        #expect(locked.stop.description.contains("python3 (pid \(holder.processIdentifier))"), "\(locked.stop)")
    }

    @Test("held open by a process the command started and did not wait for: killed, named, the run failed")
    func heldByLeftover() throws {
        let directory = try TemporaryDirectory()
        let held = try stop(of: #"python3 '\#(Self.importer)' || exit 1; exec 5<"$BENCH_DB"; setsid sleep 305.5 & exit 0"#, in: directory)
        guard case .heldOpen(let holders, let leftRunning) = held.problem else {
            Issue.record("expected a store held open, got \(String(describing: held.problem))")
            return
        }
        #expect(holders.count == 1 && leftRunning == 1, "\(holders)")
        #expect(CommandDescendantTests.processes(["sleep", "305.5"]).isEmpty)
        #expect(held.stop.description.contains("still held its store \(held.store) open"), "\(held.stop)")
    }
}
