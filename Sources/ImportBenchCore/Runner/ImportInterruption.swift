import Synchronization

/// A request to stop an import cleanly (SIGINT): the runner checks it before writing each batch and
/// before committing it, rolls the batch back, and reports what stays committed.
public enum ImportInterruption {
    private static let flag = Atomic<Bool>(false)

    /// Async-signal-safe: a lock-free store, nothing else.
    public static func request() {
        flag.store(true, ordering: .relaxed)
    }

    public static var isRequested: Bool { flag.load(ordering: .relaxed) }

    /// For tests that interrupt one run and go on.
    public static func clear() {
        flag.store(false, ordering: .relaxed)
    }
}

/// The error an interrupted import ends with.
public struct Interrupted: Error, CustomStringConvertible {
    public init() {}
    public var description: String { "interrupted" }
}
