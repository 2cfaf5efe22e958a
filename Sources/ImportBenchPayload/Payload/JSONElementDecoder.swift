/// A reader that writes one element's tape into a builder as a unit, for `JSONRecordStream`. A
/// protocol rather than a closure: a closure's captures (the reader and the builder) cost a retain
/// and a release each per element.
protocol JSONElementDecoder: AnyObject {
    /// Writes the element `tape` holds into `builder`, between the unit's begin and end. The tape's
    /// record path and base offset are the unit's. A `PayloadError` makes the element a bad record.
    func decodeElement(_ tape: JSONTape, into builder: RecordBuilder) throws
}
