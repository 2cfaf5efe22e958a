/// A payload no strategy can import whole: the reason, and what each strategy did with it.
package struct BadPayloadError: Error, CustomStringConvertible {
    package let cause: any Error
    /// Named before a cause that does not name it (a missing reference, found by key, not by position).
    package let payloadPath: String
    /// Named too, when there is one: a missing reference may be in it, checked with the payload.
    package let preloadPath: String?
    /// One line per strategy: where it stopped, what stays committed, and whether its store was checked.
    package let runs: [String]

    package var description: String {
        let files = preloadPath.map { "\(payloadPath) (or its preload \($0))" } ?? payloadPath
        let reason = cause is PayloadError ? "\(cause)" : "\(files): \(cause)"
        return reason + "\n  " + runs.joined(separator: "\n  ")
    }
}
