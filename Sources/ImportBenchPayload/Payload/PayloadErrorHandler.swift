/// A reader's bookkeeping for its `PayloadErrorPolicy`: the records it skipped, counted by reason
/// with the first few errors kept as examples, and the error that ended the read, which every later
/// call repeats (the position in the file after it means nothing).
struct PayloadErrorHandler {
    /// Enough examples to show what went wrong without keeping one error per bad record.
    static let keptErrors = 10

    let policy: PayloadErrorPolicy
    private(set) var skippedRecords: [String: Int] = [:]
    private(set) var skippedErrors: [PayloadError] = []
    private(set) var failure: (any Error)?

    init(policy: PayloadErrorPolicy) {
        self.policy = policy
    }

    func throwIfFailed() throws {
        if let failure { throw failure }
    }

    /// Ends the read with `error` (the first one stays) and returns it for throwing.
    @discardableResult
    mutating func fail(_ error: any Error) -> any Error {
        if failure == nil { failure = error }
        return failure ?? error
    }

    /// A record whose bytes were delimited but could not be read: counted under `reason` and passed
    /// over with `.skip`; with `.fail`, thrown and final.
    mutating func skip(_ error: PayloadError, reason: String) throws {
        guard policy == .skip else { throw fail(error) }
        skippedRecords[reason, default: 0] += 1
        if skippedErrors.count < Self.keptErrors { skippedErrors.append(error) }
    }
}
