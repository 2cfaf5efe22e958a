import Foundation
import ImportBenchSchema
import ImportBenchStore

/// Turns a GTFS feed directory into one unit per CSV row: every stop (file order), then every
/// trip, then every stop_time, so a stop_time's stop and trip are always written before it.
///
/// Columns are found by header name; attribute columns may be missing or empty (NULL), while
/// `stop_id`, `trip_id`, `stop_sequence` and stop_times' `stop_id` are required. A stop_time names
/// its trip and stop by key alone, as the feed does: one whose trip or stop its feed lacks is
/// handled like any missing reference (`--missing-reference`: the import stops by default, naming
/// the row), after this reader. Repeated keys are kept: the last row wins, as for every scenario.
/// The reader holds no ids, so its memory does not grow with the feed.
///
/// A row of the wrong width or with a field that does not read (an empty key, a bad number, invalid
/// UTF-8) is a `PayloadError`; with `onError: .skip` it is left out and counted as
/// `stops.txt: malformed row` instead; a stop_time naming it then names a missing stop or trip.
package final class TransitPayloadReader: RecordReader {
    package let directory: String
    private var errors: PayloadErrorHandler

    private enum Phase { case stops, trips, stopTimes, finished }
    private var phase = Phase.stops
    /// Whether any file held a row (read or skipped): a feed of header lines alone is refused.
    private var sawRow = false
    private let stops: TableReader
    private let trips: TableReader
    private let stopTimes: TableReader
    private let stopTimeTrip: Int
    private let stopTimeStop: Int
    /// Where `stop_sequence` sits in the stop_time's attributes: it is also part of the key.
    private let sequenceAttribute: Int
    /// What a reader of the feed should know of how it was read: the encoding `auto` chose per file.
    package let readingNotes: [String]
    /// Fed each file's hash, in file order, once every file has been read.
    private let hasher: PayloadHasher?
    private let fileHashers: [(name: String, hasher: PayloadHasher)]

    /// - Parameter chunkSize: bytes per read of each file; small values exist for tests.
    package init(directory: String, schema: Schema, reading: PayloadReading = PayloadReading(), chunkSize: Int = 1 << 20) throws {
        self.directory = directory
        errors = PayloadErrorHandler(policy: reading.onError)
        hasher = reading.hasher
        guard let stop = schema.index(of: Self.stop.name), schema.entities[stop] == Self.stop,
            let trip = schema.index(of: Self.trip.name), schema.entities[trip] == Self.trip,
            let stopTime = schema.index(of: Self.stopTime.name), schema.entities[stopTime] == Self.stopTime
        else {
            throw PayloadError(file: directory, byteOffset: nil, path: nil, expected: .scenarioSchema("transit"), found: "schema '\(schema.name)'")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw PayloadError(
                file: directory, byteOffset: nil, path: nil,
                expected: .feedDirectory(files: [Self.stopsFile, Self.tripsFile, Self.stopTimesFile]),
                found: "no such directory")
        }
        var fileHashers: [(name: String, hasher: PayloadHasher)] = []
        var notes: [String] = []
        func open(_ file: String, entity: Int, key: String) throws -> TableReader {
            // The files are read side by side (each header first), so each is hashed on its own.
            let fileHasher = reading.hasher.map { _ in PayloadHasher() }
            if let fileHasher { fileHashers.append((file, fileHasher)) }
            let (path, file) = try Self.feedFile(file, in: directory)
            let csv = try CSVRecordReader(
                path: path, fileName: file, chunkSize: chunkSize,
                longestRowBytes: reading.limits.longestCSVRowBytes, hasher: fileHasher, encoding: reading.encoding)
            if reading.encoding == .auto {
                notes.append("\(file) read as \(csv.encoding.rawValue) (--encoding auto\(csv.encoding == .utf8 ? "" : ": it is not valid UTF-8"))")
            }
            return TableReader(csv: csv, entity: entity, key: try csv.requiredColumn(key), attributes: schema.entities[entity].attributes)
        }
        stops = try open(Self.stopsFile, entity: stop, key: "stop_id")
        trips = try open(Self.tripsFile, entity: trip, key: "trip_id")
        stopTimes = try open(Self.stopTimesFile, entity: stopTime, key: "stop_sequence")
        stopTimeTrip = try stopTimes.csv.requiredColumn("trip_id")
        stopTimeStop = try stopTimes.csv.requiredColumn("stop_id")
        sequenceAttribute = Self.stopTime.attributes.firstIndex { $0.name == "stop_sequence" } ?? 0
        self.fileHashers = fileHashers
        readingNotes = notes
    }

    /// Where a feed keeps `file`: as it is, or gzipped beside (`stops.txt.gz`, as feeds are often
    /// shipped), read inflated; the path and the name errors give. Both at once are refused: which
    /// one the feed means is unknown.
    static func feedFile(_ file: String, in directory: String) throws -> (path: String, name: String) {
        let plain = (directory as NSString).appendingPathComponent(file)
        let gzipped = plain + ".gz"
        let manager = FileManager.default
        switch (manager.fileExists(atPath: plain), manager.fileExists(atPath: gzipped)) {
        case (false, true): return (gzipped, file + ".gz")
        case (true, true):
            throw PayloadError(
                file: directory, byteOffset: nil, path: nil, expected: .oneFeedFile(file),
                found: "both \(file) and \(file).gz: remove the one that is not the feed's")
        default: return (plain, file)
        }
    }

    /// Rows left out under `--on-error skip`, by reason (`stops.txt: malformed row`).
    package var skippedRows: [String: Int] { errors.skippedRecords }

    package var skippedRecords: [String: Int] { errors.skippedRecords }
    package var skippedErrors: [PayloadError] { errors.skippedErrors }

    /// Rows skipped so far, all reasons together.
    package var skippedRowCount: Int { skippedRows.values.reduce(0, +) }

    package func nextUnit() throws -> RecordUnit? {
        try errors.throwIfFailed()
        do {
            return try readUnit()
        } catch {
            throw errors.fail(error)
        }
    }

    private func readUnit() throws -> RecordUnit? {
        while true {
            switch phase {
            case .stops:
                guard try advance(stops) else {
                    phase = .trips
                    continue
                }
                if let unit = try readable(stops, { try keyedUnit(stops) }) { return unit }
            case .trips:
                guard try advance(trips) else {
                    phase = .stopTimes
                    continue
                }
                if let unit = try readable(trips, { try keyedUnit(trips) }) { return unit }
            case .stopTimes:
                guard try advance(stopTimes) else {
                    phase = .finished
                    for file in fileHashers {
                        hasher?.beginFile(named: file.name)
                        hasher?.absorb(file.hasher)
                    }
                    // Nothing to import is nothing to benchmark, as for an empty JSON payload.
                    guard sawRow else {
                        throw PayloadError(
                            file: directory, byteOffset: nil, path: nil,
                            expected: .atLeastOne(
                                .row(inFiles: [Self.stopsFile, Self.tripsFile, Self.stopTimesFile])),
                            found: "a header line alone in each")
                    }
                    continue
                }
                if let unit = try readable(stopTimes, stopTimeUnit) { return unit }
            case .finished:
                return nil
            }
        }
    }

    /// Moves `table` to its next row of the header's width, skipping or throwing ragged ones by the
    /// policy; false at the end of the file.
    private func advance(_ table: TableReader) throws -> Bool {
        while true {
            switch try table.csv.readRow() {
            case .success(let hasRow):
                sawRow = sawRow || hasRow
                return hasRow
            case .failure(let error):
                sawRow = true
                try errors.skip(error, reason: table.malformedRow)
            }
        }
    }

    /// What `read` makes of the current row, or nil when the row did not read and the policy skips it.
    private func readable<Value>(_ table: TableReader, _ read: () throws -> Value) throws -> Value? {
        do {
            return try read()
        } catch let error as PayloadError {
            try errors.skip(error, reason: table.malformedRow)
            return nil
        }
    }

    /// A stop or trip row's unit.
    private func keyedUnit(_ table: TableReader) throws -> RecordUnit {
        table.unit(key: try table.csv.requiredText(table.key), attributes: try table.attributeValues())
    }

    /// The current stop_times row as a unit.
    private func stopTimeUnit() throws -> RecordUnit {
        let csv = stopTimes.csv
        let tripID = try csv.requiredText(stopTimeTrip)
        let stopID = try csv.requiredText(stopTimeStop)
        guard let sequence = try csv.integer(stopTimes.key) else {
            throw csv.error(at: stopTimes.key, expected: .nonEmpty("stop_sequence"), found: "an empty field")
        }
        var attributes = try stopTimes.attributeValues()
        attributes[sequenceAttribute] = .integer(sequence)
        return stopTimes.unit(
            key: "\(tripID)/\(sequence)", attributes: attributes, toOne: [.keyOnly(.text(tripID)), .keyOnly(.text(stopID))])
    }
}

/// One file of the feed with its columns resolved once, by header name.
private struct TableReader {
    let csv: CSVRecordReader
    let entity: Int
    /// Column of the key (for stop_times, of `stop_sequence`, from which the key is built).
    let key: Int
    /// Column of each attribute, nil where the file lacks it; with the attribute's type.
    let columns: [(index: Int?, type: ColumnType)]
    /// The skip reason of a row that does not read: `stops.txt: malformed row`.
    let malformedRow: String

    init(csv: CSVRecordReader, entity: Int, key: Int, attributes: [Attribute]) {
        self.csv = csv
        self.entity = entity
        self.key = key
        columns = attributes.map { (csv.column(named: $0.name), $0.type) }
        malformedRow = "\(csv.fileName): malformed row"
    }

    func attributeValues() throws -> [StoreValue] {
        var values: [StoreValue] = []
        values.reserveCapacity(columns.count)
        for (index, type) in columns {
            switch type {
            case .text: values.append(try csv.text(index).map(StoreValue.text) ?? .null)
            case .integer, .boolean: values.append(try csv.integer(index).map(StoreValue.integer) ?? .null)
            case .real: values.append(try csv.real(index).map(StoreValue.real) ?? .null)
            }
        }
        return values
    }

    func unit(key: String, attributes: [StoreValue], toOne: [Reference?] = []) -> RecordUnit {
        RecordUnit(
            occurrences: [RecordOccurrence(entity: entity, key: .text(key), attributes: attributes, toOne: toOne)],
            path: "\(csv.fileName) line \(csv.line)", byteOffset: csv.rowByteOffset)
    }
}

/// What this reader reads, declared here so that the scenario's schema and the reader agree.
extension TransitPayloadReader {
    /// `parent_station` stays text: it may name a station further down the file.
    package static let stop = Entity(
        "stop", key: Attribute("stop_id", .text),
        attributes: [
            Attribute("stop_code", .text), Attribute("stop_name", .text), Attribute("stop_desc", .text),
            Attribute("stop_lat", .real), Attribute("stop_lon", .real), Attribute("zone_id", .text),
            Attribute("stop_url", .text), Attribute("location_type", .integer), Attribute("parent_station", .text),
            Attribute("wheelchair_boarding", .integer),
        ])

    package static let trip = Entity(
        "trip", key: Attribute("trip_id", .text),
        attributes: [
            Attribute("route_id", .text), Attribute("service_id", .text), Attribute("trip_headsign", .text),
            Attribute("trip_short_name", .text), Attribute("direction_id", .integer), Attribute("block_id", .text),
            Attribute("shape_id", .text),
        ])

    /// Keyed `<trip_id>/<stop_sequence>`, the pair GTFS makes unique.
    package static let stopTime = Entity(
        "stop_time", key: Attribute("key", .text),
        attributes: [
            Attribute("arrival_time", .text), Attribute("departure_time", .text), Attribute("stop_sequence", .integer),
            Attribute("stop_headsign", .text), Attribute("pickup_type", .integer), Attribute("drop_off_type", .integer),
            Attribute("shape_dist_traveled", .real),
        ],
        toOne: [ToOneRelationship("trip", to: "trip", owner: true), ToOneRelationship("stop", to: "stop")])

    /// The three files a feed directory must hold, read in this order (dependencies first).
    package static let stopsFile = "stops.txt"

    package static let tripsFile = "trips.txt"

    package static let stopTimesFile = "stop_times.txt"
}
