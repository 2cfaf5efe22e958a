/// Streams a payload unit by unit; never holds the whole document.
package protocol RecordReader: AnyObject {
    /// The next top-level element's occurrences, or nil at the end of the payload. After it throws,
    /// every later call throws again: a reader never resumes from a position an error made meaningless.
    func nextUnit() throws -> RecordUnit?
    /// Writes the next top-level element's occurrences into `builder` as one unit; false at the end
    /// of the payload. The import's path: a reader that writes values straight into the builder
    /// allocates nothing per occurrence. Errors as for `nextUnit`.
    func readUnit(into builder: RecordBuilder) throws -> Bool
    /// Records read past and not imported so far, counted by reason, so a run can say what it left out.
    var skippedRecords: [String: Int] { get }
    /// The errors of the first few records skipped under `PayloadErrorPolicy.skip`, so a run can
    /// show examples of what was left out.
    var skippedErrors: [PayloadError] { get }
    /// What a run should say of how the payload was read (the encoding `--encoding auto` chose).
    var readingNotes: [String] { get }
}

extension RecordReader {
    package var readingNotes: [String] { [] }

    package func readUnit(into builder: RecordBuilder) throws -> Bool {
        guard let unit = try nextUnit() else { return false }
        builder.append(unit)
        return true
    }

    package var skippedRecords: [String: Int] { [:] }
    package var skippedErrors: [PayloadError] { [] }
}
