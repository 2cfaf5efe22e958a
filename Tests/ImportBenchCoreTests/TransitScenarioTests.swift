import Foundation
import ImportBenchCore
import ImportBenchPayload
import ImportBenchStore
import ImportBenchStrategies
import Testing

@Suite("transit scenario")
struct TransitScenarioTests {
    let scenario = TransitScenario()

    private static let files = ["stops.txt", "trips.txt", "stop_times.txt"]

    private func occurrences(
        in directory: String, chunkSize: Int = 1 << 20
    ) throws -> (occurrences: [RecordOccurrence], units: [RecordUnit], reader: TransitPayloadReader) {
        let reader = try TransitPayloadReader(directory: directory, schema: scenario.schema, chunkSize: chunkSize)
        var units: [RecordUnit] = []
        while let unit = try reader.nextUnit() { units.append(unit) }
        return (units.flatMap(\.occurrences), units, reader)
    }

    private func entityCounts(_ occurrences: [RecordOccurrence]) -> [Int] {
        (0..<3).map { entity in occurrences.filter { $0.entity == entity }.count }
    }

    /// Writes a hand-made feed; files are given as lines.
    private func writeFeed(_ files: [String: [String]], in directory: TemporaryDirectory, named name: String = "feed") throws -> String {
        let feed = directory.path(name)
        try FileManager.default.createDirectory(atPath: feed, withIntermediateDirectories: true)
        for (file, lines) in files {
            try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: (feed as NSString).appendingPathComponent(file)))
        }
        return feed
    }

    private static let stops = ["stop_id,stop_name,stop_lat,stop_lon", "s1,\"Main St, North\",47.66,-122.3", "s2,Second,0.0,3"]
    private static let trips = ["trip_id,route_id,direction_id", "t1,R,1"]

    @Test("the generator is deterministic per seed, sized by scale, and replaces an earlier feed")
    func generatorIsDeterministic() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let paths = ["a", "b", "c"].map { directory.path($0) }
        try scenario.generate(scale: 0.04, seed: 4, to: paths[0])
        try scenario.generate(scale: 0.04, seed: 5, to: paths[1])  // then overwritten with seed 4
        try scenario.generate(scale: 0.04, seed: 4, to: paths[1])
        try scenario.generate(scale: 0.04, seed: 5, to: paths[2])
        func bytes(_ path: String) throws -> [Data] {
            try Self.files.map { try Data(contentsOf: URL(fileURLWithPath: (path as NSString).appendingPathComponent($0))) }
        }
        #expect(try bytes(paths[0]) == bytes(paths[1]))
        #expect(try bytes(paths[0]) != bytes(paths[2]))

        // 1,300 * sqrt(0.04) stops, 30,000 * 0.04 stop times, one trip per 25 of them.
        let read = try occurrences(in: paths[0])
        #expect(entityCounts(read.occurrences) == [260, 48, 1_200])
        #expect(read.reader.skippedRows.isEmpty)
        for entity in 0..<3 {
            let keys = read.occurrences.filter { $0.entity == entity }.map(\.key)
            #expect(Set(keys).count == keys.count)
        }
        // Each trip visits distinct stops, numbered 1...n.
        let stopTimes = read.occurrences.filter { $0.entity == 2 }
        let byTrip = Dictionary(grouping: stopTimes) { $0.toOne[0]?.key }
        #expect(byTrip.count == 48)
        for (_, visits) in byTrip {
            #expect(visits.map(\.attributes[2]) == (1...visits.count).map { StoreValue.integer(Int64($0)) })
            #expect(Set(visits.compactMap { $0.toOne[1]?.key }).count == visits.count)
        }
        #expect(stopTimes.allSatisfy { $0.toOne.allSatisfy { $0?.isKeyOnly == true } })
    }

    /// Per trip, its headsign and its stop_times' keys, as the transit reader reports them.
    private func stopTimesByTrip(
        in feed: String
    ) throws -> (headsigns: [StoreValue: StoreValue], stopTimes: [StoreValue: Set<StoreValue>]) {
        let read = try occurrences(in: feed)
        let headsign = try #require(scenario.schema.entities[1].attributes.firstIndex { $0.name == "trip_headsign" })
        var stops: Set<StoreValue> = []
        var headsigns: [StoreValue: StoreValue] = [:]
        var stopTimes: [StoreValue: Set<StoreValue>] = [:]
        for occurrence in read.occurrences {
            if occurrence.entity == 0 {
                stops.insert(occurrence.key)
            } else if occurrence.entity == 1 {
                headsigns[occurrence.key] = occurrence.attributes[headsign]
                stopTimes[occurrence.key] = []
            } else if occurrence.entity == 2, let trip = occurrence.toOne[0]?.key {
                #expect(
                    headsigns[trip] != nil && occurrence.toOne[1].map { stops.contains($0.key) } == true,
                    "every stop_time names a stop and a trip of its feed")
                stopTimes[trip, default: []].insert(occurrence.key)
            }
        }
        return (headsigns, stopTimes)
    }

    @Test("a refresh preload's changed trips, and only those, hold one stop_time the later feed has dropped", arguments: [0.5, 0])
    func preloadDropsStopTimes(changed: Double) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let generator = TransitPayloadGenerator(scale: 0.2, seed: 2)
        let (feed, preload) = (directory.path("feed"), directory.path("preload"))
        try generator.write(to: feed)
        try generator.preload(overlap: 1, changed: changed).write(to: preload)
        let later = try stopTimesByTrip(in: feed)
        let earlier = try stopTimesByTrip(in: preload)
        #expect(Set(earlier.headsigns.keys) == Set(later.headsigns.keys))

        let changedTrips = Set(later.headsigns.keys.filter { earlier.headsigns[$0] != later.headsigns[$0] })
        var dropped: [StoreValue: Set<StoreValue>] = [:]
        for (trip, kept) in later.stopTimes {
            let before = earlier.stopTimes[trip] ?? []
            #expect(kept.isSubset(of: before), "trip \(trip) gained stop_times after the preload")
            if !before.subtracting(kept).isEmpty { dropped[trip] = before.subtracting(kept) }
        }
        #expect(Set(dropped.keys) == changedTrips)
        // The dropped stop_time follows the trip's last: its stop_sequence is one past the later feed's count.
        for (trip, extra) in dropped {
            guard case .text(let id) = trip else { continue }
            #expect(extra == [.text("\(id)/\((later.stopTimes[trip]?.count ?? 0) + 1)")])
        }
        if changed > 0 {
            #expect(!changedTrips.isEmpty && changedTrips.count < later.headsigns.count)
        } else {
            #expect(dropped.isEmpty)
            for file in Self.files {
                let bytes = { (path: String) in try Data(contentsOf: URL(fileURLWithPath: (path as NSString).appendingPathComponent(file))) }
                #expect(try bytes(feed) == bytes(preload))
            }
        }
    }

    @Test("a preload's dropped stop_times leave the measured feed's bytes as they were")
    func feedBytesUnchanged() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let feed = directory.path("feed")
        try scenario.generate(scale: 0.2, seed: 1, to: feed)
        let value = try Self.files.reduce(fingerprint(Data())) { value, file in
            fingerprint(try Data(contentsOf: URL(fileURLWithPath: (feed as NSString).appendingPathComponent(file))), continuing: value)
        }
        // Recorded before preloads gained dropped stop_times: recorded results were measured on these bytes.
        #expect(value == 0x65d7_b259_c890_8480)
    }

    @Test("generated refresh over a preload with dropped stop_times: the measured data is a plain run's")
    func refreshMeasuresPlainFeed() throws {
        let scale = try #require(Scale(factor: 0.02))
        let plain = try Benchmark(
            configuration: BenchmarkConfiguration(
                spec: RunSpec(scenario: scenario.source, payload: .generated(scale: scale, seed: 3)),
                strategies: [CeilingStrategy.self])
        ).run()
        let refreshed = try Benchmark(
            configuration: BenchmarkConfiguration(
                spec: RunSpec(
                    scenario: scenario.source, payload: .generated(scale: scale, seed: 3),
                    preload: .generated(overlap: 1, changed: 0.5)),
                strategies: [CeilingStrategy.self])
        ).run()
        #expect(plain.results.first?.digest == refreshed.results.first?.digest)
    }

    @Test("generated formatting: quoted names with commas, times past midnight, exact coordinates, reordered stop_times columns")
    func generatedFormatting() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let feed = directory.path("feed")
        try scenario.generate(scale: 0.2, seed: 1, to: feed)
        let stops = try String(contentsOfFile: (feed as NSString).appendingPathComponent("stops.txt"), encoding: .utf8)
        let stopTimes = try String(contentsOfFile: (feed as NSString).appendingPathComponent("stop_times.txt"), encoding: .utf8)
        #expect(stops.contains(", Bay "))
        #expect(stopTimes.hasPrefix("trip_id,stop_sequence,stop_id,arrival_time,"))
        #expect(stopTimes.contains(",24:") || stopTimes.contains(",25:"))

        let read = try occurrences(in: feed)
        let names = TransitScenario().schema.entities[0].attributes.map(\.name)
        let name = try #require(names.firstIndex(of: "stop_name"))
        let latitude = try #require(names.firstIndex(of: "stop_lat"))
        #expect(read.occurrences.contains { if case .text(let text) = $0.attributes[name] { text.contains(", Bay ") } else { false } })
        // The first stop's latitude as written, parsed independently.
        let firstRow = stops.split(separator: "\n")[1]
        let writtenLatitude = try #require(Double(firstRow.split(separator: ",", omittingEmptySubsequences: false)[4]))
        #expect(read.occurrences[0].attributes[latitude] == .real(writtenLatitude))
    }

    @Test("stop_times with columns in any order, some absent, extra ones ignored, read the same", arguments: [1, 5, 1 << 20])
    func headerMapping(chunkSize: Int) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let seattleOrder = try writeFeed(
            [
                "stops.txt": Self.stops, "trips.txt": Self.trips,
                "stop_times.txt": [
                    "trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign,pickup_type,drop_off_type,shape_dist_traveled",
                    "t1,08:00:00,08:00:00,s1,1,,0,1,0.0", "t1,24:05:30,24:06:00,s2,2,\"Downtown, via \"\"Main\"\"\",1,0,3",
                ],
            ], in: directory, named: "seattle")
        let otherOrder = try writeFeed(
            [
                "stops.txt": Self.stops, "trips.txt": Self.trips,
                "stop_times.txt": [
                    "\u{FEFF}shape_dist_traveled,stop_sequence,timepoint,drop_off_type,stop_id,pickup_type,trip_id,departure_time,arrival_time,stop_headsign",
                    "0.0,1,1,1,s1,0,t1,08:00:00,08:00:00,", "3,2,,0,s2,1,t1,24:06:00,24:05:30,\"Downtown, via \"\"Main\"\"\"",
                ].map { $0 + "\r" },
            ], in: directory, named: "other")
        let first = try occurrences(in: seattleOrder, chunkSize: chunkSize).occurrences
        let second = try occurrences(in: otherOrder, chunkSize: chunkSize).occurrences
        #expect(first.count == 5)
        #expect(first.map(\.key) == second.map(\.key))
        #expect(first.map(\.attributes) == second.map(\.attributes))
        #expect(first.map(\.toOne) == second.map(\.toOne))
        #expect(first[4].key == "t1/2")
        #expect(
            first[4].attributes == [
                "24:05:30", "24:06:00", .integer(2), "Downtown, via \"Main\"", .integer(1), .integer(0), .real(3),
            ])
        #expect(first[4].toOne == [.keyOnly("t1"), .keyOnly("s2")])
        // Absent columns are NULL: the trips file has no service_id, headsign and so on.
        #expect(first[2].attributes == ["R", .null, .null, .null, .integer(1), .null, .null])
        #expect(first[0].attributes == [.null, "Main St, North", .null, .real(47.66), .real(-122.3), .null, .null, .null, .null, .null])
        #expect(Array(first[1].attributes[3...4]) == [.real(0), .real(3)])
    }

    @Test(
        "stop_times naming a stop or trip their feed lacks are left to --missing-reference: fail stops at the first, null and placeholder import them with every strategy valid",
        arguments: MissingReferencePolicy.allCases)
    func danglingRows(policy: MissingReferencePolicy) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let feed = try writeFeed(
            [
                "stops.txt": Self.stops, "trips.txt": Self.trips + ["t1,R,0"],  // t1 twice: the last row wins
                "stop_times.txt": ["trip_id,stop_id,stop_sequence", "t1,s1,1", "t9,s1,1", "t1,s7,2", "t9,s7,3", "t1,s2,2"],
            ], in: directory)
        // The reader passes every row on, its references by key alone.
        let read = try occurrences(in: feed)
        #expect(entityCounts(read.occurrences) == [2, 2, 5])
        #expect(read.reader.skippedRows.isEmpty)
        #expect(read.occurrences[5].toOne == [.keyOnly("t9"), .keyOnly("s1")])
        var spec = RunSpec(scenario: scenario.source, payload: .file(feed))
        spec.options.missingReference = policy
        let benchmark = Benchmark(configuration: BenchmarkConfiguration(spec: spec, strategies: StrategyCatalog.builtIn.all))
        guard policy != .fail else {
            let error = #expect(throws: (any Error).self) { try benchmark.run() }
            let text = error.map { String(describing: $0) } ?? ""
            #expect(text.hasPrefix("\(feed): stop_time 't9/1': trip refers to trip 't9'"), "\(text)")
            #expect(text.contains("--missing-reference null"), "\(text)")
            return
        }
        let outcome = try benchmark.run()
        for result in outcome.results { #expect(result.valid, "\(result.strategy): \(result.differences)") }
        // 2 stops, 1 trip, 4 stop_times (t1/2 twice); placeholder adds stubs t9 and s7.
        #expect(outcome.expected.uniqueObjects == (policy == .placeholder ? 9 : 7))
        let counted = policy == .placeholder ? ": 1 stop, 1 trip" : ": 2 stop, 2 trip"
        #expect(outcome.readingNotes.contains { $0.hasSuffix(counted) }, "\(outcome.readingNotes)")
    }

    @Test(
        "under --on-error skip a stop that does not read is left out and counted; the stop_time naming it is a missing reference, which null imports in every run"
    )
    func skippedStopThenMissing() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let feed = try writeFeed(
            [
                "stops.txt": Self.stops + ["s3,Third,north,1"], "trips.txt": Self.trips,
                "stop_times.txt": ["trip_id,stop_id,stop_sequence", "t1,s1,1", "t1,s3,2", "t1,s2,3"],
            ], in: directory)
        var spec = RunSpec(scenario: scenario.source, payload: .file(feed))
        spec.options.onError = .skip
        spec.options.missingReference = .null
        let outcome = try Benchmark(configuration: BenchmarkConfiguration(spec: spec, strategies: StrategyCatalog.builtIn.all)).run()
        #expect(outcome.skippedRecords == ["stops.txt: malformed row": 1])
        #expect(outcome.readingNotes.contains { $0.hasSuffix(": 1 stop") }, "\(outcome.readingNotes)")
        #expect(outcome.expected.uniqueObjects == 2 + 1 + 3)
        for result in outcome.results { #expect(result.valid, "\(result.strategy): \(result.differences)") }
    }

    @Test(
        "bad rows throw PayloadError naming file, line and column",
        arguments: [
            ("t1,s1,abc", 44, "stop_times.txt line 3, column stop_sequence", PayloadExpectation.kind(.integer), "'abc'"),
            ("t1,,2", 41, "stop_times.txt line 3, column stop_id", .nonEmpty("stop_id"), "an empty field"),
            ("t1,s1", 43, "stop_times.txt line 3", .fields(3), "2 fields and the end of the row"),
        ])
    func badRows(row: String, offset: Int, path: String, expected: PayloadExpectation, found: String) throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let feed = try writeFeed(
            [
                "stops.txt": Self.stops, "trips.txt": Self.trips,
                "stop_times.txt": ["trip_id,stop_id,stop_sequence", "t1,s1,1", row],
            ], in: directory)
        let error = #expect(throws: PayloadError.self) { _ = try occurrences(in: feed) }
        let file = (feed as NSString).appendingPathComponent("stop_times.txt")
        #expect(error == PayloadError(file: file, byteOffset: offset, path: path, expected: expected, found: found))
    }

    @Test("feed files shipped gzipped (stops.txt.gz) read as the plain ones; a file both ways is refused")
    func gzippedFiles() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let plain = directory.path("plain")
        let gzipped = directory.path("gzipped")
        try scenario.generate(scale: 0.04, seed: 4, to: plain)
        try scenario.generate(scale: 0.04, seed: 4, to: gzipped)
        for file in ["stops.txt", "stop_times.txt"] {
            let gzip = Process()
            gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
            gzip.arguments = [(gzipped as NSString).appendingPathComponent(file)]
            try gzip.run()
            gzip.waitUntilExit()
            try #require(gzip.terminationStatus == 0)
        }
        #expect(!FileManager.default.fileExists(atPath: (gzipped as NSString).appendingPathComponent("stops.txt")))
        let fromPlain = try occurrences(in: plain).occurrences
        let fromGzipped = try occurrences(in: gzipped).occurrences
        #expect(fromPlain.count > 100)
        #expect(fromGzipped.map(\.key) == fromPlain.map(\.key))
        #expect(fromGzipped.map(\.attributes) == fromPlain.map(\.attributes))

        try FileManager.default.copyItem(
            atPath: (plain as NSString).appendingPathComponent("stops.txt"), toPath: (gzipped as NSString).appendingPathComponent("stops.txt"))
        let error = #expect(throws: PayloadError.self) { _ = try scenario.openReader(path: gzipped) }
        #expect(error?.found.contains("both stops.txt and stops.txt.gz") == true)
    }

    @Test("a feed missing a file or a required column is refused before reading")
    func missingPieces() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let noTrips = try writeFeed(["stops.txt": Self.stops, "stop_times.txt": ["trip_id,stop_id,stop_sequence"]], in: directory, named: "a")
        #expect(throws: PayloadError.self) { _ = try scenario.openReader(path: noTrips) }
        let noSequence = try writeFeed(
            ["stops.txt": Self.stops, "trips.txt": Self.trips, "stop_times.txt": ["trip_id,stop_id,arrival_time"]], in: directory, named: "b")
        let error = #expect(throws: PayloadError.self) { _ = try scenario.openReader(path: noSequence) }
        #expect(
            error
                == PayloadError(
                    file: (noSequence as NSString).appendingPathComponent("stop_times.txt"), byteOffset: 0, path: "stop_times.txt line 1",
                    expected: .column("stop_sequence"),
                    found: "only the columns trip_id, stop_id, arrival_time: add a stop_sequence column to stop_times.txt"))
        #expect(throws: PayloadError.self) { _ = try scenario.openReader(path: directory.path("absent")) }
    }

    @Test(
        "the real GTFS feeds read completely, every stop_time naming a stop and a trip of its feed",
        .enabled(if: SharedDatasets.available, SharedDatasets.skipReason),
        arguments: [("gtfs/caltrain-2017-07-24", [64, 188, 2_697]), ("gtfs/seattle-area-2017-11-16", [259, 3_888, 57_205])])
    func realFeeds(feed: String, counts: [Int]) throws {
        let read = try occurrences(in: SharedDatasets.path(feed))
        #expect(entityCounts(read.occurrences) == counts)
        #expect(Set(read.occurrences.map { "\($0.entity)|\($0.key)" }).count == counts.reduce(0, +))
        let stopTimes = read.occurrences.filter { $0.entity == 2 }
        let stops = Set(read.occurrences.filter { $0.entity == 0 }.map(\.key))
        let trips = Set(read.occurrences.filter { $0.entity == 1 }.map(\.key))
        #expect(stopTimes.allSatisfy { $0.toOne[0].map { trips.contains($0.key) } == true && $0.toOne[1].map { stops.contains($0.key) } == true })
        // Both feeds write times past midnight for late trips; Caltrain has no shape_dist_traveled column.
        #expect(stopTimes.contains { if case .text(let time) = $0.attributes[0] { time.hasPrefix("24:") } else { false } })
        #expect(stopTimes.allSatisfy { $0.attributes[6] == .null } == feed.contains("caltrain"))
    }

    @Test("every strategy writes the same generated data; naive fetches once per row and once per key-only reference")
    func strategiesAgreeOnGeneratedFeed() throws {
        try checkStrategiesAgree(payloadPath: nil, stopTimes: 1_500)
    }

    @Test(
        "every strategy writes the same Caltrain data; naive fetches once per row and once per key-only reference",
        .enabled(if: SharedDatasets.available, SharedDatasets.skipReason))
    func strategiesAgreeOnCaltrain() throws {
        try checkStrategiesAgree(payloadPath: SharedDatasets.path("gtfs/caltrain-2017-07-24"), stopTimes: 2_697)
    }

    private func checkStrategiesAgree(payloadPath: String?, stopTimes: Int) throws {
        let configuration = BenchmarkConfiguration(
            spec: RunSpec(
                scenario: scenario.source,
                payload: try payloadPath.map(PayloadSource.file) ?? .generated(scale: #require(Scale(factor: 0.05)), seed: 1),
                options: RunOptions(batchSize: .occurrences(500))),
            strategies: StrategyCatalog.builtIn.all)
        let outcome = try Benchmark(configuration: configuration).run()
        let expected = outcome.expected
        #expect(expected.keyOnlyReferences == 2 * stopTimes)
        #expect(expected.uniqueObjects == expected.occurrences)
        #expect(outcome.results.count == StrategyCatalog.builtIn.all.count)
        for result in outcome.results {
            #expect(result.valid, "\(result.strategy): \(result.differences)")
            if result.strategy == NaiveStrategy.name {
                #expect(result.measurement.counts.fetches == expected.occurrences + expected.keyOnlyReferences)
            }
        }
    }
}
