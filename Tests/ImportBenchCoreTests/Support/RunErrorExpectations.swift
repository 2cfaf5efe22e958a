import ImportBenchCore
import Testing

/// Where the import in `body` stopped: the `ImportStop` inside the `RunError.stopped` it must throw.
func expectStop(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
) throws -> ImportStop {
    let error = try #require(throws: RunError.self, sourceLocation: sourceLocation) { try body() }
    return try #require(error.stop, "expected an import to stop, got \(error)", sourceLocation: sourceLocation)
}

/// What `body` was refused with, before any import: the `RunRefusal` inside the `RunError.refused`
/// it must throw; nil (with an issue recorded) when it threw anything else or nothing.
func expectRefusal(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) -> RunRefusal? {
    let error = #expect(throws: RunError.self, sourceLocation: sourceLocation) { try body() }
    guard let error else { return nil }
    guard let refusal = error.refusal else {
        Issue.record("expected a refusal, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
    return refusal
}
