import Foundation
import ImportBenchPayload

/// Writes a GTFS feed directory (stops.txt, trips.txt, stop_times.txt) row by row. Every row
/// depends only on (seed, index), so trips can name their last stop and stop_times their stops
/// without keeping earlier rows: memory does not grow with scale.
///
/// Trips belong to routes of 20; a route walks the stops with a stride prime to the stop count,
/// so a trip's stops are distinct. Formatting imitates real feeds: times past 24:00:00 for late
/// trips, coordinates with 5 or 6 exact decimals, quoted names holding commas or quotes, empty
/// optional fields, extra columns the reader must ignore, and stop_times' columns in another
/// order than the Seattle feed's.
package struct TransitPayloadGenerator: Sendable {
    package let scale: Double
    package let seed: UInt64
    package let stopCount: Int
    package let stopTimeCount: Int
    package let tripCount: Int
    /// The trips written (with their stop times); all stops are always written.
    package private(set) var tripRange: Range<Int>
    /// Bumped for another revision of the same trips: headsign and every stop time change...
    package private(set) var revision = 0
    /// ...for this share of trips, chosen per trip independently of the revision.
    package private(set) var changedShare = 1.0

    static let tripsPerRoute = 20
    /// A station every 40 stops; stops before it may name it as their parent (a forward reference).
    static let stationInterval = 40

    static let stopsHeader = [
        "stop_id", "stop_code", "stop_name", "stop_desc", "stop_lat", "stop_lon", "zone_id", "stop_url",
        "location_type", "parent_station", "wheelchair_boarding", "platform_code",
    ]
    static let tripsHeader = [
        "route_id", "service_id", "trip_id", "trip_headsign", "trip_short_name", "direction_id", "block_id", "shape_id",
        "wheelchair_accessible", "bikes_allowed",
    ]
    /// Not the Seattle feed's order (trip_id, arrival_time, departure_time, stop_id, stop_sequence, ...).
    static let stopTimesHeader = [
        "trip_id", "stop_sequence", "stop_id", "arrival_time", "departure_time", "pickup_type", "drop_off_type",
        "shape_dist_traveled", "timepoint", "stop_headsign",
    ]

    static let streets = [
        "Friedrichstraße", "Unter den Linden", "Karl-Marx-Allee", "Kurfürstendamm", "Alexanderplatz", "Potsdamer Platz",
        "Torstraße", "Warschauer Straße", "Hermannstraße", "Schönhauser Allee", "Sonnenallee", "Kantstraße",
        "Prenzlauer Allee", "Oranienstraße", "Greifswalder Straße", "Müllerstraße", "Turmstraße", "Bernauer Straße",
    ]
    static let landmarks = ["the town hall", "the market", "the hospital", "the university", "the stadium", "the park"]
    static let services = ["WEEKDAY", "WEEKDAY", "WEEKDAY", "SATURDAY", "SUNDAY"]

    package init(scale: Double, seed: UInt64) {
        self.scale = scale
        self.seed = seed
        let factor = scale.isFinite && scale > 0 ? scale : 1
        stopCount = max(1, Int((Double(TransitScenario.baseStops) * factor.squareRoot()).rounded()))
        stopTimeCount = max(1, Int((Double(TransitScenario.baseStopTimes) * factor).rounded()))
        tripCount = max(1, Int((Double(stopTimeCount) / Double(TransitScenario.stopsPerTrip)).rounded()))
        tripRange = 0..<tripCount
    }

    /// An earlier feed for a refresh: every stop, `overlap` of the trips with their stop times,
    /// `changed` of those with another headsign, times shifted by a minute per revision, and one stop
    /// more at the end, which this feed has dropped.
    package func preload(overlap: Double, changed: Double) -> TransitPayloadGenerator {
        var earlier = self
        earlier.tripRange = 0..<Int((Double(tripCount) * overlap).rounded())
        earlier.revision = revision + 1
        earlier.changedShare = changed
        return earlier
    }

    /// The revision a trip is written at: drawn from its own stream, so the same trips change whichever revision is written.
    private func appliedRevision(trip index: Int) -> Int {
        var draw = SeededRandom(seed: SeededRandom.subSeed(seed, stream: 46, index: UInt64(index)))
        return revision > 0 && draw.chance(changedShare) ? revision : 0
    }

    /// Writes the feed into a staging directory beside `path`, then puts it in place: the directory
    /// renamed when `path` does not exist, else each of the three files renamed over the earlier
    /// feed's. Nothing appears at `path` unless the whole feed was written, a failure removes only
    /// the staging directory, and nothing at `path` is ever deleted (a directory named stops.txt
    /// there makes the rename fail, and stay).
    package func write(to path: String) throws {
        guard scale.isFinite, scale > 0 else {
            throw PayloadError(file: path, byteOffset: nil, path: nil, expected: .positiveScale, found: "\(scale)")
        }
        let target = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        if exists, !isDirectory.boolValue {
            throw PayloadError(file: path, byteOffset: nil, path: nil, expected: .feedOutput(.directoryOrNothing), found: "a file")
        }
        let staging = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).partial-\(getpid())")
        do {
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        } catch {
            throw PayloadError(
                file: path, byteOffset: nil, path: nil, expected: .feedOutput(.writableDirectory), found: "\(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(at: staging) }
        let files = [TransitPayloadReader.stopsFile, TransitPayloadReader.tripsFile, TransitPayloadReader.stopTimesFile]
        try writeStops(to: staging.appendingPathComponent(files[0]).path)
        try writeTrips(to: staging.appendingPathComponent(files[1]).path)
        try writeStopTimes(to: staging.appendingPathComponent(files[2]).path)
        if !exists {
            guard rename(staging.path, path) == 0 else { throw Self.renameFailure(staging.path, path) }
            return
        }
        for file in files {
            let from = staging.appendingPathComponent(file).path
            let to = target.appendingPathComponent(file).path
            guard rename(from, to) == 0 else { throw Self.renameFailure(from, to) }
        }
    }

    private static func renameFailure(_ from: String, _ to: String) -> PayloadError {
        PayloadError(
            file: to, byteOffset: nil, path: nil, expected: .feedOutput(.placeFor(from)), found: String(cString: strerror(errno)))
    }

    // MARK: Ids

    /// A bijection of the index (7919 is prime to the modulus), so ids never collide.
    static func stopID(_ index: Int) -> String { String(100_000_000 + (index &* 7_919) % 899_999_999) }

    static func tripID(_ index: Int) -> String { String(300_000_000 + (index &* 7_919) % 699_999_999) }

    static func isStation(_ index: Int) -> Bool { index % stationInterval == stationInterval - 1 }

    /// A stop's name, drawn from its own stream so a trip's headsign can name it.
    func stopName(_ index: Int) -> String {
        var random = SeededRandom(seed: SeededRandom.subSeed(seed, stream: 41, index: UInt64(index)))
        let street = random.pick(Self.streets)
        var cross = random.pick(Self.streets)
        if cross == street { cross = Self.streets[((Self.streets.firstIndex(of: street) ?? 0) + 1) % Self.streets.count] }
        if Self.isStation(index) { return "S+U \(street) (Berlin)" }
        if random.chance(0.01) { return "\(street) \"Hbf\"" }
        if random.chance(0.08) { return "\(street) & \(cross), Bay \(random.nextInt(in: 1...6))" }
        return "\(street) & \(cross)"
    }

    // MARK: Stops

    private func writeStops(to path: String) throws {
        let writer = try CSVTextWriter(path: path)
        writer.row(Self.stopsHeader)
        for index in 0..<stopCount {
            if index % 1024 == 0 { try ImportInterruption.throwIfRequested() }
            var random = SeededRandom(seed: SeededRandom.subSeed(seed, stream: 40, index: UInt64(index)))
            let id = Self.stopID(index)
            writer.text(id)
            if random.chance(0.6) { writer.integer(10_000 + index) } else { writer.empty() }
            writer.text(stopName(index))
            if random.chance(0.1) { writer.text("Near \(random.pick(Self.landmarks)), \(random.pick(Self.streets))") } else { writer.empty() }
            // Berlin, written with 5 or 6 decimals as feeds do; exact fixed-point, never a printed Double.
            let digits = random.chance(0.3) ? 5 : 6
            let unit = digits == 6 ? 1 : 10
            writer.decimal(random.nextInt(in: 52_340_000...52_680_000) / unit, fractionDigits: digits)
            writer.decimal(random.nextInt(in: 13_080_000...13_760_000) / unit, fractionDigits: digits)
            if random.chance(0.97) { writer.text(random.pick(["A", "B", "C"])) } else { writer.empty() }
            if random.chance(0.05) { writer.text("https://transit.example/stops/\(id)") } else { writer.empty() }
            if random.chance(0.97) { writer.integer(Self.isStation(index) ? 1 : 0) } else { writer.empty() }
            let station = (index / Self.stationInterval + 1) * Self.stationInterval - 1
            if !Self.isStation(index), station < stopCount, random.chance(0.25) { writer.text(Self.stopID(station)) } else { writer.empty() }
            if random.chance(0.9) { writer.integer(random.pick([0, 1, 1, 2])) } else { writer.empty() }
            if random.chance(0.05) { writer.integer(random.nextInt(in: 1...4)) } else { writer.empty() }
            writer.endRow()
        }
        try writer.close()
    }

    // MARK: Trips

    /// Where a trip goes: its route, direction, and the stops it visits as a walk over the stop indexes.
    struct TripPlan {
        let route: Int
        let direction: Int
        let length: Int
        let firstStop: Int
        /// Added (mod the stop count) from one stop to the next; prime to the stop count.
        let stride: Int

        func stop(at position: Int, of stopCount: Int) -> Int {
            (firstStop + position * stride) % stopCount
        }
    }

    func plan(trip index: Int) -> TripPlan {
        let route = index / Self.tripsPerRoute
        var routeRandom = SeededRandom(seed: SeededRandom.subSeed(seed, stream: 43, index: UInt64(route)))
        let start = routeRandom.nextInt(below: stopCount)
        var stride = 1
        for _ in 0..<16 {
            let candidate = routeRandom.nextInt(in: 1...max(1, stopCount - 1))
            if Self.greatestCommonDivisor(candidate, stopCount) == 1 {
                stride = candidate
                break
            }
        }
        let length = tripLength(index)
        let direction = index % 2
        // The return direction walks the same line backwards, from its far end.
        let forwardEnd = (start + (length - 1) * stride) % stopCount
        return TripPlan(
            route: route, direction: direction, length: length,
            firstStop: direction == 0 ? start : forwardEnd,
            stride: direction == 0 ? stride : (stopCount - stride) % max(stopCount, 1))
    }

    /// Stop times split evenly over the trips, then a pair of trips trades a few stops (one gains
    /// what the other loses), so the lengths vary around 25 while the total stays exact.
    func tripLength(_ index: Int) -> Int {
        let base = stopTimeCount / tripCount
        let remainder = stopTimeCount % tripCount
        func even(_ trip: Int) -> Int { base + (trip < remainder ? 1 : 0) }
        let pair = index / 2
        let first = pair * 2
        guard first + 1 < tripCount else { return min(even(index), stopCount) }
        var random = SeededRandom(seed: SeededRandom.subSeed(seed, stream: 42, index: UInt64(pair)))
        let shortest = min(even(first), even(first + 1))
        let longest = max(even(first), even(first + 1))
        let limit = max(0, min(8, shortest - 2, stopCount - longest))
        let trade = random.nextInt(in: 0...limit)
        return min(even(index) + (index == first ? trade : -trade), stopCount)
    }

    private func writeTrips(to path: String) throws {
        let writer = try CSVTextWriter(path: path)
        writer.row(Self.tripsHeader)
        for index in tripRange {
            if index % 1024 == 0 { try ImportInterruption.throwIfRequested() }
            var random = SeededRandom(seed: SeededRandom.subSeed(seed, stream: 44, index: UInt64(index)))
            let plan = plan(trip: index)
            writer.integer(100_000 + plan.route)
            writer.text(random.pick(Self.services))
            writer.text(Self.tripID(index))
            let revised = appliedRevision(trip: index)
            writer.text(stopName(plan.stop(at: plan.length - 1, of: stopCount)) + (revised > 0 ? " (revised \(revised))" : ""))
            if random.chance(0.3) { writer.integer(random.nextInt(in: 100...999)) } else { writer.empty() }
            writer.integer(plan.direction)
            if random.chance(0.8) { writer.text("B\(index / 3)") } else { writer.empty() }
            writer.text("SH\(plan.route)_\(plan.direction)")
            writer.integer(random.pick([0, 1, 1, 2]))
            if random.chance(0.5) { writer.integer(1) } else { writer.empty() }
            writer.endRow()
        }
        try writer.close()
    }

    // MARK: Stop times

    private func writeStopTimes(to path: String) throws {
        let writer = try CSVTextWriter(path: path)
        writer.row(Self.stopTimesHeader)
        for index in tripRange {
            if index % 1024 == 0 { try ImportInterruption.throwIfRequested() }
            var random = SeededRandom(seed: SeededRandom.subSeed(seed, stream: 45, index: UInt64(index)))
            let plan = plan(trip: index)
            let tripID = Self.tripID(index)
            // Service from 04:30 for 20 hours; the last trips run past 24:00:00, as GTFS writes them.
            // A revised trip runs a minute later per revision; the shift follows the draws, so nothing else moves.
            let revised = appliedRevision(trip: index)
            let shift = revised * 60
            var clock = 16_200 + random.nextInt(below: 1_200) * 60
            var distanceTenths = 0
            let headsign = random.chance(0.05) ? "to \(stopName(plan.stop(at: plan.length - 1, of: stopCount)))" : nil
            for position in 0..<plan.length {
                if position > 0 {
                    clock += random.nextInt(in: 60...180)
                    distanceTenths += random.nextInt(in: 3_000...15_000)
                }
                let dwell = position > 0 && position < plan.length - 1 && random.chance(0.2) ? 30 : 0
                writer.text(tripID)
                writer.integer(position + 1)
                writer.text(Self.stopID(plan.stop(at: position, of: stopCount)))
                writer.time(secondsSinceMidnight: clock + shift)
                writer.time(secondsSinceMidnight: clock + dwell + shift)
                // A revised trip goes on to one more stop, so its last stop here still picks up.
                writer.integer(position == plan.length - 1 && revised == 0 ? 1 : 0)
                writer.integer(position == 0 ? 1 : 0)
                writer.decimal(distanceTenths, fractionDigits: 1)
                if random.chance(0.3) { writer.integer(1) } else { writer.empty() }
                if let headsign, position < plan.length - 1 { writer.text(headsign) } else { writer.empty() }
                writer.endRow()
                clock += dwell
            }
            if revised > 0 {
                // The next stop of the walk; this trip's stream has nothing left to draw for, so the
                // extra draws move nothing else.
                clock += random.nextInt(in: 60...180)
                distanceTenths += random.nextInt(in: 3_000...15_000)
                writer.text(tripID)
                writer.integer(plan.length + 1)
                writer.text(Self.stopID(plan.stop(at: plan.length, of: stopCount)))
                writer.time(secondsSinceMidnight: clock + shift)
                writer.time(secondsSinceMidnight: clock + shift)
                writer.integer(1)
                writer.integer(0)
                writer.decimal(distanceTenths, fractionDigits: 1)
                if random.chance(0.3) { writer.integer(1) } else { writer.empty() }
                writer.empty()
                writer.endRow()
            }
        }
        try writer.close()
    }

    private static func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }
}
