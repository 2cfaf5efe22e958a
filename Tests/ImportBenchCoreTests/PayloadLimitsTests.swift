import Foundation
import Testing

@testable import ImportBenchCore

/// Readers hold at most one bounded row or element: an input past the bound ends with a located
/// error naming the option that raises it, after reading about the bound and no more.
@Suite("Payload limits")
struct PayloadLimitsTests {
    static func limits(element: Int = 1 << 20, string: Int = 1 << 20, number: Int = 1 << 10) -> PayloadLimits {
        PayloadLimits(longestCSVRowBytes: 1 << 20, longestJSONElementBytes: element, longestJSONStringBytes: string, longestJSONNumberBytes: number)
    }

    struct LongRow: Sendable, CustomStringConvertible {
        let text: String
        let offset: Int
        let line: Int
        var description: String { "row at byte \(offset)" }
    }

    static let longRows: [LongRow] = [
        LongRow(text: "a,b\n1,2\n" + String(repeating: "x", count: 300) + ",3\n", offset: 8, line: 3),
        LongRow(text: "a,b\n1,2\n\"" + String(repeating: "y", count: 300) + "\",3\n", offset: 8, line: 3),
        LongRow(text: String(repeating: "\0", count: 5_000), offset: 0, line: 1),
    ]

    @Test("a CSV row past the limit is refused at its start, plain or quoted, whatever the chunk size", arguments: longRows, [1, 7, 1 << 20])
    func csvRow(row: LongRow, chunkSize: Int) throws {
        let (text, offset, line) = (row.text, row.offset, row.line)
        try withTemporaryPayloadDirectory { directory in
            let file = directory.path("stops.txt")
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
            let error = #expect(throws: PayloadError.self) {
                let reader = try CSVRecordReader(path: file, chunkSize: chunkSize, longestRowBytes: 256)
                while try reader.nextRow() {}
            }
            #expect(error?.byteOffset == offset)
            #expect(error?.path == "stops.txt line \(line)")
            #expect(error?.expected == "a row of at most 256 bytes (raise the limit with --max-csv-row-bytes)")
            #expect(String(describing: error).count < 400)
        }
        // At the limit itself the row is read.
        try withTemporaryPayloadDirectory { directory in
            let file = directory.path("ok.txt")
            try Data(("a\n" + String(repeating: "z", count: 256) + "\n").utf8).write(to: URL(fileURLWithPath: file))
            let reader = try CSVRecordReader(path: file, chunkSize: chunkSize, longestRowBytes: 256)
            #expect(try reader.nextRow())
            #expect(try reader.text(0)?.count == 256)
        }
    }

    @Test("a JSON element past the limit is refused where it starts, with its record path", arguments: [1, 5, 1 << 20])
    func jsonElement(chunkSize: Int) throws {
        try withTemporaryPayloadDirectory { directory in
            let file = directory.path("payload.json")
            let long = "{\"s\":\"" + String(repeating: "a", count: 2_000) + "\"}"
            try Data("{\"channels\":[{\"id\":1},\(long)]}".utf8).write(to: URL(fileURLWithPath: file))
            let reader = try JSONArrayElementReader(path: file, arrayPath: ["channels"], chunkSize: chunkSize, limits: Self.limits(element: 1_024))
            #expect(try reader.next()?.index == 0)
            let error = #expect(throws: PayloadError.self) { _ = try reader.next() }
            #expect(error?.byteOffset == 22)
            #expect(error?.path == "channels[1]")
            #expect(error?.expected == "an element of at most 1024 bytes (raise the limit with --max-json-element-bytes)")
        }
    }

    @Test("an element that never closes stops at the limit instead of reading the whole file")
    func unclosedElement() throws {
        try withTemporaryPayloadDirectory { directory in
            let file = directory.path("endless.json")
            let handle = try #require(FileHandle(forWritingAtPath: { FileManager.default.createFile(atPath: file, contents: nil); return file }()))
            try handle.write(contentsOf: Data("[\"".utf8))
            try handle.truncate(atOffset: 64 << 20)  // sparse: 64 MB of NUL bytes inside an open string
            try handle.close()
            let reader = try JSONArrayElementReader(path: file, arrayPath: [], limits: Self.limits(element: 1 << 20))
            let error = #expect(throws: PayloadError.self) { _ = try reader.next() }
            #expect(error?.path == "[0]")
            #expect(error?.byteOffset == 1)
        }
    }

    @Test("a string or number past its limit: the fast parse declines the element, the checked parse locates it", arguments: [
        ("{\"id\":1,\"name\":\"" + String(repeating: "n", count: 100) + "\"}", 15, "[0].name", "a string of at most 64 bytes (raise the limit with --max-json-string-bytes)", "one of 102 bytes"),
        ("{\"" + String(repeating: "k", count: 70) + "\":1}", 1, "[0]", "a string of at most 64 bytes (raise the limit with --max-json-string-bytes)", "one of 72 bytes"),
        ("{\"id\":" + String(repeating: "7", count: 40) + "}", 6, "[0].id", "a number of at most 32 characters (raise the limit with --max-json-number-bytes)", "one of 40"),
    ])
    func scalars(element: String, offset: Int, path: String, expected: String, found: String) throws {
        let limits = Self.limits(string: 64, number: 32)
        try withTemporaryPayloadDirectory { directory in
            let file = directory.path("payload.json")
            try Data("[\(element)]".utf8).write(to: URL(fileURLWithPath: file))
            let reader = try JSONArrayElementReader(path: file, arrayPath: [], limits: limits)
            guard case .delimited(let delimited)? = try reader.next() else {
                Issue.record("the fast parse accepted an element past the limits")
                return
            }
            let error = #expect(throws: PayloadError.self) {
                _ = try JSONTape(bytes: delimited.bytes, baseOffset: delimited.byteOffset, file: file, recordPath: "[0]", limits: limits)
            }
            #expect(error?.byteOffset == offset + 1)
            #expect(error?.path == path)
            #expect(error?.expected == expected)
            #expect(error?.found == found)
            // Within the defaults, the same element is parsed in place.
            let relaxed = try JSONArrayElementReader(path: file, arrayPath: [])
            guard case .parsed? = try relaxed.next() else {
                Issue.record("the element within the default limits was not parsed in place")
                return
            }
        }
    }
}

@Suite("Payload paths")
struct PayloadPathTests {
    @Test("a FIFO, a device, a missing file, and a FIFO inside a feed directory are refused, named")
    func refused() throws {
        try withTemporaryPayloadDirectory { directory in
            let fifo = directory.path("payload.json")
            #expect(mkfifo(fifo, 0o644) == 0)
            #expect(throws: PayloadError(file: fifo, byteOffset: nil, path: nil, expected: "a regular file or a directory of them",
                                         found: "a FIFO (a named pipe), which could keep bench waiting forever")) { try PayloadPath.check(fifo) }
            #expect(throws: PayloadError.self) { try PayloadPath.check("/dev/zero") }
            #expect(throws: PayloadError.self) { try PayloadPath.check(directory.path("absent.json")) }
            let feed = directory.path("feed")
            try FileManager.default.createDirectory(atPath: feed, withIntermediateDirectories: false)
            try Data("stop_id\n".utf8).write(to: URL(fileURLWithPath: feed + "/stops.txt"))
            try PayloadPath.check(feed)
            #expect(mkfifo(feed + "/trips.txt", 0o644) == 0)
            let error = #expect(throws: PayloadError.self) { try PayloadPath.check(feed) }
            #expect(error?.file == feed + "/trips.txt")
            try Data("[]".utf8).write(to: URL(fileURLWithPath: directory.path("ok.json")))
            try PayloadPath.check(directory.path("ok.json"))
        }
    }
}

@Suite("Payload reading through a scenario")
struct PayloadReadingTests {
    /// A GTFS feed with a given stops.txt.
    private func feed(stops: String, in directory: TemporaryDirectory) throws -> String {
        let feed = directory.path("feed")
        try FileManager.default.createDirectory(atPath: feed, withIntermediateDirectories: false)
        try Data(stops.utf8).write(to: URL(fileURLWithPath: feed + "/stops.txt"))
        try Data("trip_id,route_id\nt1,r1\n".utf8).write(to: URL(fileURLWithPath: feed + "/trips.txt"))
        try Data("trip_id,stop_id,stop_sequence,arrival_time,departure_time\nt1,s1,1,08:00:00,08:00:00\n".utf8)
            .write(to: URL(fileURLWithPath: feed + "/stop_times.txt"))
        return feed
    }

    @Test("a scenario's reader takes the limits it is given, and hashes a feed file by file")
    func transit() throws {
        try withTemporaryPayloadDirectory { directory in
            let path = try feed(stops: "stop_id,stop_name,stop_lat,stop_lon\ns1," + String(repeating: "n", count: 600) + ",1,2\n", in: directory)
            var limits = PayloadLimits.default
            limits.longestCSVRowBytes = 512
            let error = #expect(throws: PayloadError.self) {
                let reader = try TransitScenario().openReader(path: path, reading: PayloadReading(limits: limits))
                while try reader.nextUnit() != nil {}
            }
            #expect(error?.path == "stops.txt line 2")

            let hasher = PayloadHasher()
            let reader = try TransitScenario().openReader(path: path, reading: PayloadReading(hasher: hasher))
            var units = 0
            while try reader.nextUnit() != nil { units += 1 }
            #expect(units == 3)
            let again = PayloadHasher()
            let second = try TransitScenario().openReader(path: path, reading: PayloadReading(hasher: again))
            while try second.nextUnit() != nil {}
            #expect(hasher.digest == again.digest)
            try Data("stop_id,stop_name,stop_lat,stop_lon\ns1,M,1,2\n".utf8).write(to: URL(fileURLWithPath: path + "/stops.txt"))
            let edited = PayloadHasher()
            let third = try TransitScenario().openReader(path: path, reading: PayloadReading(hasher: edited))
            while try third.nextUnit() != nil {}
            #expect(edited.digest != hasher.digest)
        }
    }
}

@Suite("A payload with nothing to import")
struct EverythingSkippedTests {
    @Test("--on-error skip that skipped every record fails, saying so, instead of importing nothing as a success")
    func everythingSkipped() throws {
        try withTemporaryPayloadDirectory { directory in
            let path = directory.path("bad.json")
            try Data("{\"channels\":[{\"x\":1},{\"y\":2}]}".utf8).write(to: URL(fileURLWithPath: path))
            let configuration = BenchmarkConfiguration(
                spec: RunSpec(scenario: .builtIn("chat"), payload: .file(path), options: RunOptions(onError: .skip)),
                strategies: [NaiveStrategy.self])
            let error = #expect(throws: PayloadError.self) { _ = try Benchmark(configuration: configuration).run() }
            #expect(error?.found.hasPrefix("every record skipped under --on-error skip (2 malformed channel)") == true)
        }
    }
}

@Suite("Errors quote little")
struct ErrorQuoteTests {
    @Test("a duplicated CSV column name of 5,000 characters is quoted at most 200 characters")
    func longQuote() throws {
        try withTemporaryPayloadDirectory { directory in
            let name = String(repeating: "c", count: 5_000)
            let file = directory.path("stops.txt")
            try Data("\(name),\(name)\n1,2\n".utf8).write(to: URL(fileURLWithPath: file))
            let error = #expect(throws: PayloadError.self) { _ = try CSVRecordReader(path: file) }
            #expect((error?.found.count ?? .max) <= PayloadError.longestQuote + 40)
            #expect(error?.found.hasSuffix("(cut at 200 characters)") == true)
        }
    }
}

@Suite("Real lists with a broken channel")
struct MissingFieldTests {
    @Test("a channel that lacks its cid is skipped under --on-error skip, and every strategy imports the rest valid")
    func channelWithoutCID() throws {
        try withTemporaryPayloadDirectory { directory in
            let full = directory.path("full.json")
            try ChatScenario().generate(scale: 0.04, seed: 3, to: full)
            var text = try String(contentsOfFile: full, encoding: .utf8)
            let cid = try #require(text.range(of: "\"cid\":\"messaging:channel-1\","))
            text.removeSubrange(cid)
            let payload = directory.path("payload.json")
            try text.write(toFile: payload, atomically: true, encoding: .utf8)
            let configuration = BenchmarkConfiguration(
                spec: RunSpec(scenario: .builtIn("chat"), payload: .file(payload), options: RunOptions(onError: .skip)),
                strategies: StrategyRegistry.all)
            let outcome = try Benchmark(configuration: configuration).run()
            #expect(outcome.skippedRecords == ["malformed channel": 1])
            let planned = configuration.plannedStrategies.count
            #expect(outcome.results.count == planned)
            #expect(outcome.results.allSatisfy { $0.valid })
            #expect(Set(outcome.results.map(\.digest)).count == 1)
        }
    }
}

@Suite("What a scale needs")
struct ResourceNeedTests {
    @Test("record buffers per payload byte are measured on a sample; a run past the memory available is refused, naming both")
    func memory() throws {
        let ratio = try MemoryNeed.recordBytesPerPayloadByte(of: ChatScenario())
        #expect(ratio > 0.5 && ratio < 20, "\(ratio)")
        let available = try #require(MemoryNeed.availableBytes())
        let error = #expect(throws: RunRequestError.self) {
            try MemoryNeed.check(ChatScenario(), payloadBytes: available / ratio * 2, recordBytesPerPayloadByte: ratio, describing: "chat at 9000x")
        }
        #expect(error.map { "\($0)" }?.hasPrefix("chat at 9000x needs about ") == true)
        try MemoryNeed.check(ChatScenario(), payloadBytes: 1_000_000, recordBytesPerPayloadByte: ratio, describing: "chat at 0.1x")
    }

    @Test("a scale past the free disk is refused before anything is generated, naming need and free space")
    func disk() throws {
        let error = #expect(throws: RunRequestError.self) {
            try DiskNeed.check(ChatScenario(), scale: try #require(Scale(factor: 1e12)), payloadBytesAtBaseScale: 1e7)
        }
        #expect(error.map { "\($0)" }?.contains("needs about") == true)
        #expect(DiskNeed.describe(1.1e16) == "11 PB")
        #expect(DiskNeed.describe(8.2e10) == "82 GB")
        #expect(DiskNeed.describe(512) == "512 bytes")
    }
}
