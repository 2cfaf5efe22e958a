import ImportBenchPayload
import ImportBenchSchema

/// A GTFS feed (stops, trips, stop_times): stop_times name their stop and trip by key only, so
/// every row costs a find-or-create strategy two lookups. The relationship-heavy case of objc.io
/// issue 4, "Importing Large Data Sets", whose Berlin feed is this scenario at 100x.
package struct TransitScenario: Scenario {
    package let name = "transit"
    package let summary = "GTFS feed directory (stops, trips, stop_times): rows that refer to stops and trips by key only"
    package let readsCSV = true
    package let schema: Schema
    /// The next 20 departures after 08:00 at a served stop (the first stop_time's), with each trip's headsign and route.
    package let screenQuery = """
        SELECT st."departure_time", t."trip_headsign", t."route_id" FROM "stop_time" st JOIN "trip" t ON t."pk" = st."trip_pk" \
        WHERE st."stop_pk" = (SELECT "stop_pk" FROM "stop_time" ORDER BY "pk" LIMIT 1) AND st."departure_time" >= '08:00:00' \
        ORDER BY st."departure_time" LIMIT 20
        """

    /// Stops at scale 1; they grow with the square root of the scale (a city has only so many stops).
    package static let baseStops = 1_300
    /// Stop times at scale 1; they and the trips grow linearly.
    package static let baseStopTimes = 30_000
    /// Stops a trip visits on average: trips = stop times / 25.
    package static let stopsPerTrip = 25

    package init() {
        do {
            schema = try Schema(name: "transit", entities: [TransitPayloadReader.stop, TransitPayloadReader.trip, TransitPayloadReader.stopTime])
        } catch {
            fatalError("transit schema is invalid: \(error)")
        }
    }

    /// `path` is the feed directory; it is created, and an earlier feed's three files replaced.
    package func generate(scale: Double, seed: UInt64, to path: String) throws {
        try TransitPayloadGenerator(scale: scale, seed: seed).write(to: path)
    }

    /// `path` is the feed directory holding stops.txt, trips.txt and stop_times.txt.
    package func generatePreload(scale: Double, seed: UInt64, overlap: Double, changed: Double, to path: String) throws {
        try TransitPayloadGenerator(scale: scale, seed: seed).preload(overlap: overlap, changed: changed).write(to: path)
    }

    package func openReader(path: String, reading: PayloadReading) throws -> any RecordReader {
        try TransitPayloadReader(directory: path, schema: schema, reading: reading)
    }
}
