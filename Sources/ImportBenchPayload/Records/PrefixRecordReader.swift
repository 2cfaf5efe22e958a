/// The first `limit` occurrences of another reader, the last unit cut where the limit falls: what the
/// committed batches of a failed import held. Units list dependencies first, so a cut keeps every
/// embedded reference pointing at an occurrence before it.
package final class PrefixRecordReader: RecordReader {
    private let reader: any RecordReader
    private var remaining: Int

    package init(_ reader: any RecordReader, occurrences limit: Int) {
        self.reader = reader
        self.remaining = max(0, limit)
    }

    package func nextUnit() throws -> RecordUnit? {
        guard remaining > 0, var unit = try reader.nextUnit() else { return nil }
        if unit.occurrences.count > remaining { unit.occurrences.removeLast(unit.occurrences.count - remaining) }
        remaining -= unit.occurrences.count
        return unit
    }

    package var skippedRecords: [String: Int] { reader.skippedRecords }
    package var skippedErrors: [PayloadError] { reader.skippedErrors }
}
