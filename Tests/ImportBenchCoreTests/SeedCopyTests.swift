import Foundation
import ImportBenchCore
import ImportBenchPayload
import ImportBenchStore
import ImportBenchStrategies
import Testing

@Suite("seed-copy through the benchmark")
struct SeedCopyTests {
    static func configuration(
        _ scenario: any Scenario = ChatScenario(), strategies: [any MeasuredMethod.Type], seed: UInt64 = 1
    ) throws -> BenchmarkConfiguration {
        BenchmarkConfiguration(
            spec: RunSpec(scenario: scenario.source, payload: .generated(scale: try #require(Scale(parsing: "0.05x")), seed: seed)),
            strategies: strategies)
    }

    /// A seed store built by the builder, as `bench seed-db` would, from the generator at 0.05x.
    static func seedStore(
        _ scenario: any Scenario = ChatScenario(), seed: UInt64, at path: String, in directory: TemporaryDirectory
    ) throws -> SeedStoreReport {
        let payload = try SeedStoreBuilderTests.payload(scenario, seed: seed, in: directory)
        return try SeedStoreBuilderTests.builder(scenario, payload: payload, seed: seed).build(at: path)
    }

    @Test("seed-copy is run only by name, listed apart from the imports and the pitfalls")
    func registry() throws {
        #expect(!StrategyCatalog.builtIn.names.contains(SeedCopyMethod.name))
        #expect(StrategyCatalog.builtIn.alternatives.map { $0.name } == [SeedCopyMethod.name])
        #expect(StrategyCatalog.builtIn.knownNames.contains(SeedCopyMethod.name))
        #expect(StrategyCatalog.builtIn.strategy(named: "seed-copy") != nil)
        #expect(SeedCopyMethod.role == .alternative)
    }

    @Test("prewarm and seed-copy, the seed built by the benchmark: both valid, one digest", arguments: ScenarioRegistry.names)
    func beside(scenarioName: String) throws {
        let scenario = try #require(ScenarioRegistry.scenario(named: scenarioName))
        let outcome = try Benchmark(configuration: Self.configuration(scenario, strategies: [PrewarmStrategy.self, SeedCopyMethod.self])).run()
        #expect(outcome.results.map(\.strategy) == ["prewarm", "ceiling", "seed-copy"])
        for result in outcome.results { #expect(result.valid, "\(result.strategy): \(result.differences)") }
        #expect(Set(outcome.results.map(\.digest)).count == 1)
        let seedStore = try #require(outcome.seedStore)
        #expect(seedStore.buildTimes != nil)
        #expect(seedStore.metadata.digest == outcome.expected.digest.value)
        let seedCopy = try #require(outcome.results.last)
        #expect(seedCopy.measurement.counts.inserts == 0 && seedCopy.measurement.counts.statements > 0)
        #expect(seedCopy.measurement.databaseBytes > 0)
    }

    @Test("a given seed store is adopted, in a child-process spec too, and leaves no temporary file beside the copy")
    func givenStore() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let seedPath = directory.path("seed.sqlite")
        _ = try Self.seedStore(seed: 1, at: seedPath, in: directory)
        let kept = directory.path("kept")
        try FileManager.default.createDirectory(atPath: kept, withIntermediateDirectories: true)
        var configuration = try Self.configuration(strategies: [SeedCopyMethod.self])
        configuration.adopt(seedPath)
        configuration.databasePath = kept + "/store.sqlite"
        var specs: [ImportRunSpec] = []
        let outcome = try Benchmark(
            configuration: configuration,
            executor: { run, progress in
                specs.append(ImportRunSpec(run))
                let rebuilt = try ImportRunSpec(run).makeRun()
                #expect(rebuilt.spec == run.spec && rebuilt.method.name == run.method.name && rebuilt.databasePath == run.databasePath)
                #expect(rebuilt.method.settings == run.method.settings)
                return try rebuilt.execute(progress: progress)
            }
        ).run()
        for result in outcome.results { #expect(result.valid, "\(result.strategy): \(result.differences)") }
        #expect(outcome.seedStore?.path == seedPath && outcome.seedStore?.buildTimes == nil)
        // The store reaches the child in the method's settings, never in the run's spec.
        #expect(specs.first { $0.method == SeedCopyMethod.name }?.methodSettings.values.contains(seedPath) == true)
        #expect(specs.first { $0.method == CeilingStrategy.name }?.methodSettings.isEmpty == true)
        let files = try FileManager.default.contentsOfDirectory(atPath: kept).sorted()
        #expect(files == ["store-ceiling.sqlite", "store-seed-copy.sqlite"])
        // The seed itself is left as it was.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasPrefix("seed.sqlite") } == ["seed.sqlite"])
    }

    @Test("a seed store built for another seed is refused before any run, naming what differs and the command that fixes it")
    func mismatchedSeed() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let seedPath = directory.path("seed.sqlite")
        _ = try Self.seedStore(seed: 2, at: seedPath, in: directory)
        var configuration = try Self.configuration(strategies: [PrewarmStrategy.self, SeedCopyMethod.self], seed: 1)
        configuration.adopt(seedPath)
        var started: [String] = []
        let error = #expect(throws: ImportError.self) {
            try Benchmark(configuration: configuration).run { event in
                if case .runStarted(let strategy, _, _, _) = event { started.append(strategy) }
            }
        }
        let message = error?.description ?? ""
        #expect(message.contains(seedPath))
        #expect(message.contains("seed: built with seed 2, the run uses seed 1"))
        #expect(message.contains("bench seed-db --scenario chat --scale 0.05x --seed 1 --out \(seedPath)"))
        #expect(started.isEmpty)
    }

    @Test(
        "a seed store is adopted only by a run that reads its payload as the build did; one read otherwise, or by a bench that did not record how, is refused with the command that builds a matching one",
        arguments: [(PayloadErrorPolicy.skip, PayloadErrorPolicy.fail), (.fail, .skip), (.skip, .skip)])
    func readingRecorded(built: PayloadErrorPolicy, run: PayloadErrorPolicy) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let seedPath = directory.path("seed.sqlite")
        let payload = try SeedStoreBuilderTests.payload(ChatScenario(), seed: 1, in: directory)
        let scale = try #require(Scale(parsing: "0.05x"))
        let report = try SeedStoreBuilder(
            scenario: ChatScenario(), payloadPath: payload, scale: scale, seed: 1, reading: PayloadReading(onError: built)
        ).build(at: seedPath)
        // Under skip the limits count too: what passes one is left out.
        #expect(report.metadata.readingOptions?.hasPrefix("--on-error \(built) --missing-reference fail --encoding utf-8") == true)
        #expect(report.metadata.readingOptions?.contains("--max-json-string-bytes") == (built == .skip))
        #expect(try SeedStoreMetadata.read(at: seedPath) == report.metadata)
        var configuration = try Self.configuration(strategies: [SeedCopyMethod.self])
        configuration.adopt(seedPath)
        configuration.spec.options.onError = run
        guard built != run else {
            let outcome = try Benchmark(configuration: configuration).run()
            for result in outcome.results { #expect(result.valid, "\(result.strategy): \(result.differences)") }
            // Built by a bench that did not record how it read: refused, though it holds the payload.
            let store = try StoreConnection(path: seedPath)
            try store.execute("ALTER TABLE importbench_seed DROP COLUMN reading_options")
            #expect(try SeedStoreMetadata.read(at: seedPath).readingOptions == nil)
            let error = #expect(throws: ImportError.self) { try Benchmark(configuration: configuration).run() }
            #expect(error?.description.contains("reading: built with options this bench did not record") == true, "\(String(describing: error))")
            return
        }
        let error = #expect(throws: ImportError.self) { try Benchmark(configuration: configuration).run() }
        let message = error?.description ?? ""
        #expect(
            message.contains(
                "reading: built with \(PayloadReading(onError: built).contentOptions()), "
                    + "the run reads with \(PayloadReading(onError: run).contentOptions())"), "\(message)")
        let flags = run == .skip ? " --on-error skip" : ""
        #expect(message.contains("bench seed-db --scenario chat --scale 0.05x --seed 1\(flags) --out \(seedPath)"), "\(message)")
    }

    @Test(
        "options count only for the files they apply to: a chat seed built with latin-1 and a CSV row limit records neither and is adopted; a transit one built with latin-1 and a JSON limit records only the encoding and is refused",
        arguments: ["chat", "transit"])
    func readingOptionsOnlyWhereTheyApply(scenarioName: String) throws {
        let scenario = try #require(ScenarioRegistry.scenario(named: scenarioName))
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let seedPath = directory.path("seed.sqlite")
        let payload = try SeedStoreBuilderTests.payload(scenario, seed: 1, in: directory)
        let scale = try #require(Scale(parsing: "0.05x"))
        // A limit of the other kind of file: it has no effect on this payload.
        var limits = PayloadLimits.default
        if scenario.readsCSV { limits.longestJSONElementBytes = 7_654_321 } else { limits.longestCSVRowBytes = 123_456 }
        let report = try SeedStoreBuilder(
            scenario: scenario, payloadPath: payload, scale: scale, seed: 1,
            reading: PayloadReading(onError: .skip, limits: limits, encoding: .latin1)
        ).build(at: seedPath)
        let recorded = try #require(report.metadata.readingOptions)
        #expect(recorded.contains("--encoding \(scenario.readsCSV ? "latin-1" : "utf-8")"), "\(recorded)")
        #expect(!recorded.contains("123456") && !recorded.contains("7654321"), "\(recorded)")
        var configuration = try Self.configuration(scenario, strategies: [SeedCopyMethod.self])
        configuration.adopt(seedPath)
        configuration.spec.options.onError = .skip
        if scenario.readsCSV {
            configuration.spec.options.limits = limits
            let error = #expect(throws: ImportError.self) { try Benchmark(configuration: configuration).run() }
            #expect(error?.description.contains("--encoding latin-1") == true, "\(String(describing: error))")
        } else {
            let outcome = try Benchmark(configuration: configuration).run()
            #expect(outcome.results.contains { $0.strategy == SeedCopyMethod.name && $0.valid })
        }
    }

    @Test(
        "a store whose recorded options include one without effect on its scenario, as an earlier bench wrote them (--encoding latin-1 for chat), is adopted by a run with or without it; for transit the encoding still counts",
        arguments: ["chat", "transit"])
    func earlierRecordedOptions(scenarioName: String) throws {
        let scenario = try #require(ScenarioRegistry.scenario(named: scenarioName))
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let seedPath = directory.path("seed.sqlite")
        _ = try Self.seedStore(scenario, seed: 1, at: seedPath, in: directory)
        let store = try StoreConnection(path: seedPath)
        try store.execute("UPDATE importbench_seed SET reading_options = '\(PayloadReading(encoding: .latin1).contentOptions())'")
        // Transit's recorded latin-1 is made up (it was built reading UTF-8), so only the refusal is run.
        for encoding in scenario.readsCSV ? [TextEncoding.utf8] : [.latin1, .utf8] {
            var configuration = try Self.configuration(scenario, strategies: [SeedCopyMethod.self])
            configuration.adopt(seedPath)
            configuration.spec.options.encoding = encoding
            if scenario.readsCSV {
                let error = #expect(throws: ImportError.self) { try Benchmark(configuration: configuration).run() }
                #expect(
                    error?.description.contains("built with --on-error fail --missing-reference fail --encoding latin-1") == true,
                    "\(String(describing: error))")
            } else {
                let outcome = try Benchmark(configuration: configuration).run()
                #expect(outcome.results.contains { $0.strategy == SeedCopyMethod.name && $0.valid }, "\(encoding)")
            }
        }
    }

    @Test("every way a seed store differs is named: the reading beside another payload; the limits count only under skip")
    func allDifferencesNamed() throws {
        let metadata = SeedStoreMetadata(
            scenario: "chat", scale: nil, seed: nil, payloadFingerprint: "a", digest: "d", objects: 1,
            readingOptions: PayloadReading().contentOptions(), builtAt: "t", buildSeconds: 0)
        let lines = metadata.differences(
            scenario: "chat", scale: nil, seed: nil, payloadFingerprint: "b", readingOptions: PayloadReading(onError: .skip).contentOptions())
        #expect(lines.count == 2 && lines[0].hasPrefix("reading: ") && lines[1].hasPrefix("payload: "), "\(lines)")
        var limits = PayloadLimits.default
        limits.longestJSONStringBytes = 100
        #expect(PayloadReading(limits: limits).contentOptions(omittingDefaults: true) == "")
        #expect(
            PayloadReading(onError: .skip, limits: limits).contentOptions(omittingDefaults: true) == "--on-error skip --max-json-string-bytes 100")
    }

    @Test("a seed store built under --on-error skip says what it left out, and one of nothing is refused")
    func skippedWhileBuilding() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        func feed(_ name: String, stops: [String]) throws -> String {
            let feed = directory.path(name)
            try FileManager.default.createDirectory(atPath: feed, withIntermediateDirectories: true)
            let files = ["stops.txt": ["stop_id,stop_lat"] + stops, "trips.txt": ["trip_id"], "stop_times.txt": ["trip_id,stop_id,stop_sequence"]]
            for (file, lines) in files {
                try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: feed + "/" + file))
            }
            return feed
        }
        let reading = PayloadReading(onError: .skip)
        let some = try SeedStoreBuilder(
            scenario: TransitScenario(), payloadPath: feed("some", stops: ["s1,north", "s2,2.5"]), reading: reading
        ).build(at: directory.path("some.sqlite"))
        #expect(some.metadata.objects == 1)
        #expect(some.readingNotes == ["skipped 1 records: stops.txt: malformed row"])
        let none = directory.path("none.sqlite")
        let error = #expect(throws: ImportError.self) {
            try SeedStoreBuilder(scenario: TransitScenario(), payloadPath: feed("none", stops: ["s1,north"]), reading: reading).build(at: none)
        }
        #expect(
            error?.description.contains("every record skipped under --on-error skip (1 stops.txt: malformed row)") == true,
            "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: none))
    }

    @Test("a seed store of another scenario is refused, naming the scenarios")
    func mismatchedScenario() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let seedPath = directory.path("seed.sqlite")
        _ = try Self.seedStore(ProductsScenario(), seed: 1, at: seedPath, in: directory)
        var configuration = try Self.configuration(QuakesScenario(), strategies: [SeedCopyMethod.self])
        configuration.adopt(seedPath)
        let error = #expect(throws: ImportError.self) { try Benchmark(configuration: configuration).run() }
        #expect(error?.description.contains("scenario: built for products, the run imports quakes") == true)
    }

    @Test("seed-copy with a preload is refused: adopting replaces the store")
    func refusesPreload() throws {
        var configuration = try Self.configuration(QuakesScenario(), strategies: [SeedCopyMethod.self])
        configuration.spec.preload = .generated(overlap: 0.5, changed: 0.5)
        let error = expectRefusal { _ = try Benchmark(configuration: configuration).run() }
        #expect(error == .refreshNotMeasurable(methods: ["seed-copy"], reason: SeedCopyMethod.refreshRefusal ?? ""))
        #expect(error?.description.contains("--preload") == true)
    }

    @Test("a seed store whose latest commits are only in its -wal is adopted with them", arguments: [StoreSettings.Journal.wal, .delete])
    func walCompanion(journal: StoreSettings.Journal) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let scenario = ChatScenario()
        let seedPath = directory.path("seed.sqlite")
        let built = try Self.seedStore(scenario, seed: 1, at: seedPath, in: directory)
        let table = try #require(scenario.schema.entities.last).name

        // The main file loses a table's rows; the -wal, never checkpointed, brings them back.
        let writer = try StoreConnection(path: seedPath)
        try writer.execute("PRAGMA foreign_keys = OFF")
        try writer.execute("CREATE TABLE saved AS SELECT * FROM \"\(table)\"; DELETE FROM \"\(table)\"")
        try writer.execute("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0")
        try writer.execute("INSERT INTO \"\(table)\" SELECT * FROM saved; DROP TABLE saved")
        let walSize = (try FileManager.default.attributesOfItem(atPath: seedPath + "-wal")[.size] as? NSNumber)?.int64Value ?? 0
        #expect(walSize > 0)
        #expect(FileManager.default.fileExists(atPath: seedPath + "-shm"))

        // Without its -wal the seed would be missing the table's rows.
        let mainOnly = directory.path("main-only.sqlite")
        try FileManager.default.copyItem(atPath: seedPath, toPath: mainOnly)
        #expect(try scenario.schema.digest(of: StoreConnection(path: mainOnly)).value != built.metadata.digest)

        var configuration = try Self.configuration(strategies: [SeedCopyMethod.self])
        configuration.adopt(seedPath)
        configuration.spec.options.store = StoreSettings(journal: journal)
        let kept = directory.path("kept")
        try FileManager.default.createDirectory(atPath: kept, withIntermediateDirectories: true)
        configuration.databasePath = kept + "/store.sqlite"
        let outcome = try Benchmark(configuration: configuration).run()
        let seedCopy = try #require(outcome.results.first { $0.strategy == SeedCopyMethod.name })
        #expect(seedCopy.valid, "\(seedCopy.differences)")
        #expect(seedCopy.digest == built.metadata.digest)
        #expect(try FileManager.default.contentsOfDirectory(atPath: kept).sorted() == ["store-ceiling.sqlite", "store-seed-copy.sqlite"])
        let adopted = try StoreConnection(path: kept + "/store-seed-copy.sqlite")
        #expect(try SeedStoreBuilderTests.text("PRAGMA journal_mode", in: adopted) == journal.rawValue)
        withExtendedLifetime(writer) {}
    }

    /// The page size is the one `--pragma` that shapes the file: a seed store matches the runs on it.
    @Test(
        "a seed store has the page size the runs ask: built so by the benchmark or by seed-db; a given one of another is refused before any run",
        arguments: [nil, 4096, 8192] as [Int?])
    func pageSize(givenStoreBuiltWith built: Int?) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let kept = directory.path("kept")
        try FileManager.default.createDirectory(atPath: kept, withIntermediateDirectories: true)
        var configuration = try Self.configuration(strategies: [SeedCopyMethod.self])
        configuration.spec.options.store.pragmas = [try StorePragma(name: .pageSize, value: "8192")]
        configuration.databasePath = kept + "/store.sqlite"
        let seedPath = directory.path("seed.sqlite")
        if let built {
            var builder = try SeedStoreBuilderTests.builder(
                ChatScenario(), payload: try SeedStoreBuilderTests.payload(ChatScenario(), seed: 1, in: directory))
            builder.pageSize = built
            _ = try builder.build(at: seedPath)
            #expect(try Self.pageSize(of: seedPath) == built)
            configuration.adopt(seedPath)
        }
        guard built == nil || built == 8192 else {
            var started: [String] = []
            let error = #expect(throws: ImportError.self) {
                try Benchmark(configuration: configuration).run { event in
                    if case .runStarted(let strategy, _, _, _) = event { started.append(strategy) }
                }
            }
            let message = error?.description ?? ""
            #expect(message.contains("has pages of \(built ?? 0) bytes where this run asks --pragma page_size=8192"))
            #expect(message.contains("bench seed-db --scenario chat --scale 0.05x --seed 1 --pragma page_size=8192 --out \(seedPath)"))
            #expect(started.isEmpty)
            return
        }
        let outcome = try Benchmark(configuration: configuration).run()
        for result in outcome.results { #expect(result.valid, "\(result.strategy): \(result.differences)") }
        #expect(try Self.pageSize(of: kept + "/store-seed-copy.sqlite") == 8192)
    }

    @Test("a run without --pragma page_size adopts only a store of SQLite's default page size")
    func defaultPageSize() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let seedPath = directory.path("seed.sqlite")
        var builder = try SeedStoreBuilderTests.builder(
            ChatScenario(), payload: try SeedStoreBuilderTests.payload(ChatScenario(), seed: 1, in: directory))
        builder.pageSize = 8192
        _ = try builder.build(at: seedPath)
        var configuration = try Self.configuration(strategies: [SeedCopyMethod.self])
        configuration.adopt(seedPath)
        let error = #expect(throws: ImportError.self) { try Benchmark(configuration: configuration).run() }
        let message = error?.description ?? ""
        #expect(message.contains("has pages of 8192 bytes where this run's stores have SQLite's default of 4096"))
        // The values travel with the error, not only its sentence.
        guard case .seedStore(let path, .otherPageSize(let actual, let wanted, let asked, _))? = error else {
            Issue.record("expected a page-size refusal, got \(message)")
            return
        }
        #expect(path == seedPath && actual == 8192 && wanted == 4096 && !asked)
        #expect(message.contains("bench seed-db --scenario chat --scale 0.05x --seed 1 --out \(seedPath)"))
    }

    static func pageSize(of path: String) throws -> Int {
        let store = try StoreConnection(path: path, readOnly: true)
        return try withExtendedLifetime(store) {
            let statement = try store.prepare("PRAGMA page_size")
            defer { statement.reset() }
            _ = try statement.step()
            return Int(statement.int64(at: 0))
        }
    }

    @Test("a store that is not a seed store is refused with what to do")
    func notASeedStore() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let path = directory.path("plain.sqlite")
        try StoreConnection(path: path).execute("CREATE TABLE t (x)")
        var configuration = try Self.configuration(strategies: [SeedCopyMethod.self])
        configuration.adopt(path)
        let error = #expect(throws: ImportError.self) { try Benchmark(configuration: configuration).run() }
        #expect(error?.description.contains("bench seed-db") == true)
    }
}

extension BenchmarkConfiguration {
    /// seed-copy, wherever it is planned, adopting `path` instead of a store built from the payload.
    fileprivate mutating func adopt(_ path: String) {
        strategies = strategies.map { $0.name == SeedCopyMethod.name ? SeedCopyMethod.method(adopting: path) : $0 }
    }
}

extension BenchmarkOutcome {
    /// The store seed-copy adopted, as its preparation reported it.
    fileprivate var seedStore: SeedStoreReport? {
        preparations.lazy.compactMap { $0.report as? SeedStoreReport }.first
    }
}
