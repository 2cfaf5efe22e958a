/// The most a payload reader holds at once, whatever the file: a CSV row, a JSON array element
/// (read whole before it is parsed), a JSON string and a JSON number. Memory then has a bound that
/// does not depend on the input's size, and an input past one (`/dev/zero` as `stops.txt`, a string
/// that never closes) ends with a located error that names the option raising it.
package struct PayloadLimits: Codable, Sendable, Equatable {
    package var longestCSVRowBytes: Int
    package var longestJSONElementBytes: Int
    package var longestJSONStringBytes: Int
    package var longestJSONNumberBytes: Int

    /// Far above what real payloads hold (a GTFS row is under a kilobyte; a chat channel with 200
    /// messages about 200 KB), far below what would strain the machine.
    package static let `default` = PayloadLimits(
        longestCSVRowBytes: 1 << 20, longestJSONElementBytes: 64 << 20, longestJSONStringBytes: 16 << 20, longestJSONNumberBytes: 1 << 10)

    package init(longestCSVRowBytes: Int, longestJSONElementBytes: Int, longestJSONStringBytes: Int, longestJSONNumberBytes: Int) {
        self.longestCSVRowBytes = longestCSVRowBytes
        self.longestJSONElementBytes = longestJSONElementBytes
        self.longestJSONStringBytes = longestJSONStringBytes
        self.longestJSONNumberBytes = longestJSONNumberBytes
    }

    /// The command-line option that raises each limit, for error messages.
    package enum Option {
        package static let csvRow = "--max-csv-row-bytes"
        package static let jsonElement = "--max-json-element-bytes"
        package static let jsonString = "--max-json-string-bytes"
        package static let jsonNumber = "--max-json-number-bytes"
    }
}
