import ArgumentParser
import ImportBenchCore

/// The longest row, element, string and number a payload's reader holds, for every command that
/// reads payloads: memory stays bounded whatever the file, and a file past a limit ends with a
/// located error naming the option to raise.
struct PayloadLimitOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The longest CSV row (GTFS) read, in bytes; a longer one is refused where it starts.",
        valueName: "bytes"))
    var maxCsvRowBytes = PayloadLimits.default.longestCSVRowBytes

    @Option(help: ArgumentHelp(
        "The longest element of a JSON payload's array (a chat channel, a feature, a product) read whole before it is parsed, in bytes.",
        valueName: "bytes"))
    var maxJsonElementBytes = PayloadLimits.default.longestJSONElementBytes

    @Option(help: ArgumentHelp(
        "The longest JSON string, quotes included, in bytes.",
        valueName: "bytes"))
    var maxJsonStringBytes = PayloadLimits.default.longestJSONStringBytes

    @Option(help: ArgumentHelp(
        "The longest JSON number, in characters.", valueName: "n"))
    var maxJsonNumberBytes = PayloadLimits.default.longestJSONNumberBytes

    func validate() throws {
        let values = [
            ("--max-csv-row-bytes", maxCsvRowBytes), ("--max-json-element-bytes", maxJsonElementBytes),
            ("--max-json-string-bytes", maxJsonStringBytes), ("--max-json-number-bytes", maxJsonNumberBytes),
        ]
        for (name, value) in values where value < 1 {
            throw ValidationError("\(name) must be at least 1")
        }
    }

    var limits: PayloadLimits {
        PayloadLimits(
            longestCSVRowBytes: maxCsvRowBytes, longestJSONElementBytes: maxJsonElementBytes,
            longestJSONStringBytes: maxJsonStringBytes, longestJSONNumberBytes: maxJsonNumberBytes)
    }
}
