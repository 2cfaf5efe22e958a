/// Streams a payload unit by unit; never holds the whole document.
public protocol RecordReader: AnyObject {
    /// The next top-level element's occurrences, or nil at the end of the payload.
    func nextUnit() throws -> RecordUnit?
}
