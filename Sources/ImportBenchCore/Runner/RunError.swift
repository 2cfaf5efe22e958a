import ImportBenchPayload
import ImportBenchStrategies

/// The run layer's one error: why a benchmark or an import did not finish, as values a caller acts
/// on (the exit status, what to tell the user); the sentence is made only when it is described.
package enum RunError: Error, CustomStringConvertible {
    /// Found before any import: the run cannot be carried out as asked, and nothing was changed.
    case refused(RunRefusal)
    /// An import started and stopped: which strategy, where, why, and what stays committed.
    case stopped(ImportStop)
    /// The benchmark's own work beside the imports failed (a full disk, an I/O error, SQLite's
    /// error): which step, in which work directory; no import wrote anything because of it.
    case preparationFailed(PreparationStep, directory: String, cause: any Error)
    /// A payload no strategy can import whole: the reason, and what each strategy did with it.
    case badPayload(BadPayloadReport)
    /// A stopping signal (SIGINT, SIGTERM, SIGHUP) arrived outside an import; nothing is half-written.
    case interrupted
    /// The C reference's replay of the ceiling's store failed in SQLite.
    case referenceReplayFailed(code: Int32, message: String)
    /// The C reference's store holds other content than the ceiling's: each difference.
    case referenceDiffers(differences: [String])
    /// The reader probe (the screen's query on a second connection) gave no latencies: the error
    /// its query met, or nil when its thread ended without a result.
    case readerProbeFailed(cause: (any Error)?)

    /// The benchmark's own work, apart from the imports.
    package enum PreparationStep: Sendable {
        case generatingPayload
        case workingOutExpectedContent
        case replayingCReference
    }

    /// The refusal, when the run was refused before any import.
    package var refusal: RunRefusal? {
        if case .refused(let refusal) = self { return refusal }
        return nil
    }

    /// Where the import stopped, when one did.
    package var stop: ImportStop? {
        if case .stopped(let stop) = self { return stop }
        return nil
    }

    /// Whether a stopping signal ended the run, inside an import or outside one.
    package var isInterruption: Bool {
        switch self {
        case .interrupted: return true
        case .stopped(let stop): return stop.stage == .interrupted
        default: return false
        }
    }

    package var description: String {
        switch self {
        case .refused(let refusal):
            return refusal.description
        case .stopped(let stop):
            return stop.description
        case .preparationFailed(let step, let directory, let cause):
            return "\(step.text) in \(directory) failed: \(cause). No store was written by this step; the temporary files are removed"
        case .badPayload(let report):
            return report.description
        case .interrupted:
            return "interrupted"
        case .referenceReplayFailed(let code, let message):
            return "the C reference could not replay the ceiling's store: SQLite error \(code): \(message)"
        case .referenceDiffers(let differences):
            return "the C reference's store differs from the ceiling's: \(differences.joined(separator: "; "))"
        case .readerProbeFailed(let cause?):
            return "the reader probe's query failed: \(cause)"
        case .readerProbeFailed(nil):
            return "the reader probe ended without a result"
        }
    }

    /// Runs `body`, turning a failure that is not the payload's, the strategies', a refusal or an
    /// interruption (a full disk, an I/O error) into `.preparationFailed`.
    static func during<T>(_ step: PreparationStep, in directory: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error where error is PayloadError || error is StrategyError || error is ImportError {
            throw error
        } catch RunError.refused(let refusal) {
            throw RunError.refused(refusal)
        } catch RunError.interrupted {
            throw RunError.interrupted
        } catch {
            throw RunError.preparationFailed(step, directory: directory, cause: error)
        }
    }
}

extension RunError.PreparationStep {
    var text: String {
        switch self {
        case .generatingPayload: return "generating the payload"
        case .workingOutExpectedContent: return "working out the expected content"
        case .replayingCReference: return "replaying the C reference"
        }
    }
}
