import Foundation
import ImportBenchStore
import Testing

@testable import ImportBenchCore
@testable import ImportBenchPayload
@testable import ImportBenchStrategies

@Suite("Text encodings of CSV payloads")
struct TextEncodingTests {
    @Test("Latin-1 and Windows-1252 bytes become the right characters")
    func decoding() {
        let bytes: [UInt8] = [0x4D, 0x61, 0x6C, 0x6D, 0xF6, 0x20, 0x96, 0x20, 0x80, 0x81]
        let latin1 = bytes.withUnsafeBufferPointer { TextEncoding.latin1.decode($0) }
        let windows = bytes.withUnsafeBufferPointer { TextEncoding.windows1252.decode($0) }
        #expect(latin1 == "Malmö \u{96} \u{80}\u{81}")
        #expect(windows == "Malmö – €\u{81}")
    }

    @Test("UTF-8 validity is judged over the whole file, a sequence split across chunks included")
    func validation() {
        let text = Array("São Paulo – Sé, Ørestad 🚆".utf8)
        for split in 0...text.count {
            let first = Array(text[..<split])
            guard let consumed = UTF8Validator.validPrefix(first) else {
                Issue.record("valid prefix refused at split \(split)")
                continue
            }
            #expect(UTF8Validator.validPrefix(Array(first[consumed...]) + Array(text[split...])) == text.count - consumed)
        }
        #expect(UTF8Validator.validPrefix([0x61, 0xF8, 0x62]) == nil)
        #expect(UTF8Validator.validPrefix([0xC0, 0x80]) == nil)  // overlong
        #expect(UTF8Validator.validPrefix([0xED, 0xA0, 0x80]) == nil)  // a surrogate
    }

    /// A GTFS feed whose stops.txt is Windows-1252, as many published feeds are.
    static func latinFeed(in directory: TemporaryDirectory) throws -> String {
        let feed = directory.path("feed")
        try FileManager.default.createDirectory(atPath: feed, withIntermediateDirectories: false)
        let stops = "stop_id,stop_name,stop_lat,stop_lon\ns1,Ørestad,55.63,12.58\ns2,Malmö C,55.60,13.00\ns3,São Paulo – Sé,-23.55,-46.63\n"
        let bytes = stops.unicodeScalars.map { scalar -> UInt8 in scalar == "–" ? 0x96 : UInt8(scalar.value) }
        try Data(bytes).write(to: URL(fileURLWithPath: feed + "/stops.txt"))
        try Data("trip_id,route_id\nt1,r1\n".utf8).write(to: URL(fileURLWithPath: feed + "/trips.txt"))
        try Data("trip_id,stop_id,stop_sequence,arrival_time,departure_time\nt1,s1,1,08:00:00,08:00:00\nt1,s3,2,09:00:00,09:00:00\n".utf8)
            .write(to: URL(fileURLWithPath: feed + "/stop_times.txt"))
        return feed
    }

    @Test(
        "a Windows-1252 GTFS feed imports with --encoding windows-1252 and auto (which says so), its names read back right; latin-1 reads the same letters",
        arguments: [TextEncoding.windows1252, .auto, .latin1])
    func latinFeed(encoding: TextEncoding) throws {
        let directory = try TemporaryDirectory()
        let feed = try Self.latinFeed(in: directory)
        let store = directory.path("store.sqlite")
        let run = ImportRun(
            scenario: TransitScenario(), payloadPath: feed, method: UpsertStrategy.self, databasePath: store,
            options: RunOptions(batchSize: .occurrences(2), encoding: encoding))
        _ = try run.execute()
        let names = try StoreConnection(path: store).prepare("SELECT stop_name FROM stop ORDER BY stop_id")
        var read: [String] = []
        while try names.step() { if case .text(let name) = names.value(at: 0) { read.append(name) } }
        names.reset()
        #expect(read == ["Ørestad", "Malmö C", encoding == .latin1 ? "São Paulo \u{96} Sé" : "São Paulo – Sé"])
        let reader = try TransitScenario().openReader(path: feed, reading: PayloadReading(encoding: encoding))
        #expect(reader.readingNotes.contains("stops.txt read as windows-1252 (--encoding auto: it is not valid UTF-8)") == (encoding == .auto))
        // UTF-8, the default, refuses it where it breaks and names the option.
        let error = #expect(throws: PayloadError.self) {
            let strict = try TransitScenario().openReader(path: feed, reading: PayloadReading())
            while try strict.nextUnit() != nil {}
        }
        #expect(error?.path == "stops.txt line 2, column stop_name")
        #expect(error?.expected == .validUTF8(csvText: true))
    }
}
