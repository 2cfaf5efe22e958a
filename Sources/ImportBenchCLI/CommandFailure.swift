import ImportBenchCore
import ImportBenchReport

/// The command line's one error: why a command stopped, with the exit status CI sees. A lower
/// layer's error travels in it whole, as do the gate's and a measuring child's problems; the
/// sentence is made once, when it is printed.
struct CommandFailure: Error, CustomStringConvertible {
    let exitCode: Int32
    let problem: Problem

    enum Problem {
        /// A lower layer's error (store, payload, mapping, run, results), after what the command
        /// was doing when it met it (`cannot compare`), if that is not in the error itself.
        case cause(any Error, doing: String?)
        /// The gate could not measure its base beside this build.
        case gate(GateProblem)
        /// A measuring child process broke its message stream, or ended without a message saying how.
        case child(ChildProblem)
        /// An output path bench will not write: the option, the path, and what is there.
        case output(OutputRefusal)
        /// A lower layer refused the arguments (a mapping, a preload, a `--pragma`, a run it cannot
        /// plan): a usage error, the error kept whole.
        case usage(any Error)
        /// What the command line found itself: an output path that cannot be written, a run that
        /// wrote other data than the payload's, what an interruption left.
        case found(String)
    }

    /// The line (or lines) `bench:` prefixes on standard error.
    var message: String {
        switch problem {
        case .cause(let error, let doing?): return "\(doing): \(error)"
        case .cause(let error, nil): return String(describing: error)
        case .gate(let problem): return "gate: \(problem)"
        case .child(let problem): return problem.description
        case .output(let refusal): return refusal.description
        case .found(let text): return text
        case .usage(let error): return String(describing: error).split(separator: "\n").joined(separator: " ") + " (see --help)"
        }
    }

    var description: String { message }

    /// An import that could not complete (bad payload, failed statement), a path that cannot be written: exit 1.
    static func failed(_ message: String) -> CommandFailure { CommandFailure(exitCode: ExitStatus.failure.rawValue, problem: .found(message)) }
    /// A lower layer's error: exit 1, or 128 + the signal's number when it is an interruption.
    static func failed(_ error: any Error, doing: String? = nil) -> CommandFailure {
        let interrupted = (error as? RunError)?.isInterruption == true
        return CommandFailure(exitCode: interrupted ? InterruptHandler.exitStatus : ExitStatus.failure.rawValue, problem: .cause(error, doing: doing))
    }
    /// An output path bench will not write (one the command reads, a file it did not make): exit 1.
    static func refused(_ refusal: OutputRefusal) -> CommandFailure {
        CommandFailure(exitCode: ExitStatus.failure.rawValue, problem: .output(refusal))
    }
    /// A lower layer's refusal of the command line's arguments: exit 64, as ArgumentParser's own.
    static func usage(_ error: any Error) -> CommandFailure { CommandFailure(exitCode: ExitStatus.usage.rawValue, problem: .usage(error)) }
    /// A strategy wrote data that differs from the payload's: exit 3.
    static func invalid(_ message: String) -> CommandFailure { CommandFailure(exitCode: ExitStatus.invalidData.rawValue, problem: .found(message)) }
    /// An expectation broken (or undecided under `--strict`): exit 6.
    static func expectations(_ message: String) -> CommandFailure {
        CommandFailure(exitCode: ExitStatus.expectationBroken.rawValue, problem: .found(message))
    }
    /// A results file `compare` or `report` cannot judge: its own status, so CI tells a broken
    /// input from a regression.
    static func refused(_ error: ResultsInputError, doing: String) -> CommandFailure {
        CommandFailure(exitCode: ExitStatus.refusedResults.rawValue, problem: .cause(error, doing: doing))
    }
    /// A signal stopped the run after rolling back the current batch: exit 128 + its number (130 for
    /// SIGINT, 143 for SIGTERM, 129 for SIGHUP), as a shell reports it.
    static func interrupted(_ message: String) -> CommandFailure { CommandFailure(exitCode: InterruptHandler.exitStatus, problem: .found(message)) }
    /// The gate's problem: exit 1, or 128 + the signal's number when a signal stopped it.
    static func gate(_ problem: GateProblem) -> CommandFailure {
        let status = problem == .interrupted ? InterruptHandler.exitStatus : ExitStatus.failure.rawValue
        return CommandFailure(exitCode: status, problem: .gate(problem))
    }
    /// A measuring child's problem: exit 1.
    static func child(_ problem: ChildProblem) -> CommandFailure { CommandFailure(exitCode: ExitStatus.failure.rawValue, problem: .child(problem)) }
}
