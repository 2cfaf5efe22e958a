/// What a reader does with a record it could delimit but not read: stop the import (`fail`), or
/// leave the record out, count it and go on (`skip`). Errors that leave the rest of the file
/// undelimitable (truncation, broken top-level structure) stop the import under either policy.
package enum PayloadErrorPolicy: String, Sendable, Codable, CaseIterable {
    case fail, skip
}
