/// Streams a payload unit by unit; never holds the whole document.
public protocol RecordReader: AnyObject {
    /// The next top-level element's occurrences, or nil at the end of the payload.
    func nextUnit() throws -> RecordUnit?
    /// Records read past and not imported so far, counted by reason, so a run can say what it left out.
    var skippedRecords: [String: Int] { get }
}

extension RecordReader {
    public var skippedRecords: [String: Int] { [:] }
}
