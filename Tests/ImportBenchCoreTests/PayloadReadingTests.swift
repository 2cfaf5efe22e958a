import Foundation
import Testing

@testable import ImportBenchCore
@testable import ImportBenchPayload

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

    @Test("recorded reading options read back as the reading that wrote them; text contentOptions() would not write reads as nothing")
    func contentOptionsRoundTrip() throws {
        var limits = PayloadLimits.default
        limits.longestJSONStringBytes = 100
        limits.longestCSVRowBytes = 4_096
        let readings = [
            PayloadReading(), PayloadReading(onError: .skip, limits: limits), PayloadReading(encoding: .windows1252, missingReference: .placeholder),
            PayloadReading(onError: .skip, encoding: .auto, missingReference: .null),
        ]
        for reading in readings {
            let text = reading.contentOptions()
            #expect(PayloadReading(contentOptions: text)?.contentOptions() == text, "\(text)")
        }
        #expect(PayloadReading(contentOptions: "--on-error skip --max-json-string-bytes 100")?.limits.longestJSONStringBytes == 100)
        for text in ["--on-error", "--on-error maybe", "--max-json-string-bytes -3", "--max-csv-row-bytes many", "--colour red"] {
            #expect(PayloadReading(contentOptions: text) == nil, "\(text)")
        }
    }
}
