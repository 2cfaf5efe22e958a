import Foundation
import Synchronization

/// A request to stop an import cleanly (SIGINT, SIGTERM or SIGHUP): the runner checks it before
/// writing each batch and before committing it, rolls the batch back, and reports what stays
/// committed. It remembers the signal, so the process can exit 128 + its number as a shell expects.
package enum ImportInterruption {
    /// The signal that asked, or 0.
    private static let signal = Atomic<Int32>(0)

    /// Async-signal-safe: a lock-free store, nothing else. The first signal is the one remembered.
    package static func request(signal number: Int32 = SIGINT) {
        _ = signal.compareExchange(expected: 0, desired: number, ordering: .relaxed)
    }

    package static var isRequested: Bool { signal.load(ordering: .relaxed) != 0 }

    /// The signal that asked for the stop (2 for SIGINT), or nil.
    package static var requestingSignal: Int32? {
        let number = signal.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }

    /// Throws `RunError.interrupted` once a stop was asked for: long loops outside an import (generating a
    /// payload) call it per element, so a stop does not wait for them to finish.
    package static func throwIfRequested() throws {
        if isRequested { throw RunError.interrupted }
    }

    /// For tests that interrupt one run and go on.
    package static func clear() {
        signal.store(0, ordering: .relaxed)
    }
}
