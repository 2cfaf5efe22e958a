import ArgumentParser
import ImportBenchCore
import ImportBenchPayload

/// How every command that reads payloads reads them: the text encoding of CSV files, and the
/// longest row, element, string and number a reader holds (memory stays bounded whatever the file,
/// and a file past a limit ends with a located error naming the option to raise).
struct PayloadReadingOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "How a CSV payload's (a GTFS feed's) bytes are text: utf-8, latin-1, windows-1252, or auto (UTF-8 when a file is valid UTF-8, else Windows-1252; the header says which it chose). Stored text is always UTF-8; JSON payloads are always UTF-8.",
            valueName: "name"))
    var encoding: TextEncoding = .utf8

    @Option(
        help: ArgumentHelp(
            "What a reference given by key alone (a mapping's key: PATH or keys: PATH, a channel_id) does when its object is neither stored before the import nor earlier in the payload: fail (stop, naming it), null (drop the reference: NULL, or out of the set), or placeholder (write a row holding only the key first, as an app's stub object). Applied to the records before every strategy and the verifier read them; the header counts what it changed. A GTFS stop time naming a trip or stop its feed lacks is such a reference.",
            valueName: "policy"))
    var missingReference: MissingReferencePolicy = .fail

    @Option(
        help: ArgumentHelp(
            "The longest CSV row (GTFS) read, in bytes; a longer one is refused where it starts.",
            valueName: "bytes"))
    var maxCsvRowBytes = PayloadLimits.default.longestCSVRowBytes

    @Option(
        help: ArgumentHelp(
            "The longest element of a JSON payload's array (a chat channel, a feature, a product) read whole before it is parsed, in bytes.",
            valueName: "bytes"))
    var maxJsonElementBytes = PayloadLimits.default.longestJSONElementBytes

    @Option(
        help: ArgumentHelp(
            "The longest JSON string, quotes included, in bytes.",
            valueName: "bytes"))
    var maxJsonStringBytes = PayloadLimits.default.longestJSONStringBytes

    @Option(
        help: ArgumentHelp(
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

    /// Everything above, with the command's own error policy.
    func reading(onError: PayloadErrorPolicy = .fail) -> PayloadReading {
        PayloadReading(onError: onError, limits: limits, encoding: encoding, missingReference: missingReference)
    }

    var limits: PayloadLimits {
        PayloadLimits(
            longestCSVRowBytes: maxCsvRowBytes, longestJSONElementBytes: maxJsonElementBytes,
            longestJSONStringBytes: maxJsonStringBytes, longestJSONNumberBytes: maxJsonNumberBytes)
    }
}
extension TextEncoding: ExpressibleByArgument {}
extension MissingReferencePolicy: ExpressibleByArgument {}
