extension PayloadError {
    /// A payload of which `--on-error skip` left every record out: nothing to import or to seed a
    /// store with, so the run or the build stops, counting what was skipped and quoting the first error.
    package static func everyRecordSkipped(file: String, skipped: [String: Int], first: PayloadError?) -> PayloadError {
        let reasons = skipped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        return PayloadError(
            file: file, byteOffset: nil, path: nil, expected: .atLeastOne(.readableRecord),
            found: "every record skipped under --on-error skip (\(reasons))" + (first.map { "; the first: \($0)" } ?? ""))
    }
}
