/// A run `bench` cannot carry out as asked, found before any import (thrown as `RunError.refused`):
/// what was asked, and what to do instead. Each case carries values (paths, names, byte counts); the
/// sentence is made only when it is described. (An import that starts and stops is an `ImportStop`.)
package enum RunRefusal: Equatable, Sendable, CustomStringConvertible {
    /// `--preload overlap=...` generates a payload to overlap a generated one; a recorded payload has no generator.
    case generatedPreloadWithRecordedPayload
    /// `--preload` text that is neither a file nor `overlap=X,changed=Y`.
    case invalidPreload(text: String, problem: PreloadProblem)
    /// `--pragma` text that is not `NAME=VALUE[,VALUE...]` with a name `StorePragma.Name` knows.
    case unknownPragma(text: String)
    /// A `--pragma` value SQLite would ignore or misread.
    case invalidPragmaValue(name: StorePragma.Name, value: String)
    /// Methods that cannot measure a refresh were asked to, with a preload; `reason` is theirs (`MeasuredMethod.refreshRefusal`).
    case refreshNotMeasurable(methods: [String], reason: String)
    /// The scenario has no generator for a refresh's earlier payload.
    case refreshNotGenerated(scenario: String)
    /// A mapped scenario reads the user's payloads; without a sample it has no generator.
    case notGenerated(scenario: String, mapping: String)
    /// A scenario name no built-in scenario has.
    case unknownScenario(name: String, known: [String])
    /// An `ImportRun` imports files: a generated payload or preload must be written first (the benchmark does).
    case payloadNotWritten(RunSpec)
    /// A child process was handed a spec this build cannot rebuild (names it does not know).
    case unknownSpec(ImportRunSpec)
    /// A store's path holds something `bench` did not create: it is left alone and nothing runs.
    case notOurStore(path: String, found: String)
    /// The store holds an unfinished checkpointed import made with other settings or another payload.
    case checkpointDiffers(path: String, committed: String, differences: [String])
    /// The store holds an unfinished checkpointed import of this run, and the run was not asked to continue it.
    case checkpointNotContinued(path: String, committed: String)
    /// Another bench process holds the store's lock.
    case storeInUse(path: String, holder: String)
    /// A kept store's directory cannot be written.
    case unwritableStorePath(path: String, reason: String)
    /// A generated payload and its stores would not fit on the disk: `what` needs `needBytes` for `purpose`.
    case notEnoughDisk(what: String, needBytes: Double, purpose: String, freeBytes: Double, scalable: Bool)
    /// The batches the ceiling keeps until its one transaction would not fit in memory.
    case notEnoughMemory(what: String, needBytes: Double, availableBytes: Double, scalable: Bool)

    /// What is wrong with a `--preload overlap=...` text.
    package enum PreloadProblem: Equatable, Sendable {
        /// A part that is not `NAME=X` with X between 0 and 1.
        case notAFraction
        /// A name other than overlap and changed.
        case unknownName(String)
        /// No `overlap=X`.
        case noOverlap
    }

    package var description: String {
        switch self {
        case .generatedPreloadWithRecordedPayload:
            return "a generated preload overlaps a generated payload; with --payload, give --preload a file"
        case .invalidPreload(let text, let problem):
            return "invalid preload '\(text)': \(problem.text)"
        case .unknownPragma(let text):
            return "--pragma \(text): expected NAME=VALUE[,VALUE...] with NAME one of "
                + StorePragma.Name.allCases.map(\.rawValue).joined(separator: ", ")
                + " (--journal and --synchronous set the journal and synchronous)"
        case .invalidPragmaValue(let name, let value):
            return "--pragma \(name.rawValue)=\(value): \(name.rawValue) takes \(name.expected)"
        case .refreshNotMeasurable(let methods, let reason):
            let names = methods.joined(separator: ", ")
            return "\(names) cannot measure a refresh: \(reason), so a preload has nothing to refresh; run \(names) without --preload"
        case .refreshNotGenerated(let scenario):
            return "the \(scenario) scenario cannot generate a refresh yet; give --preload a payload file"
        case .notGenerated(let scenario, let mapping):
            return "\(scenario) (from \(mapping)) has no generator: give --payload FILE, a payload of its shape, or --from SAMPLE to scale one"
        case .unknownScenario(let name, let known):
            return "unknown scenario '\(name)'; choose from \(known.joined(separator: ", "))"
        case .payloadNotWritten(let spec):
            return "cannot import \(spec.payload)\(spec.preload.map { " after \($0)" } ?? ""): an import reads files; generate them first"
        case .unknownSpec(let spec):
            return "cannot rebuild run \(spec): is the child the same build as bench?"
        case .checkpointDiffers(let path, let committed, let differences):
            return "\(path) holds an unfinished checkpointed import (\(committed) committed) made differently: "
                + differences.joined(separator: "; ") + ". Nothing was changed. Run it as it was made to continue it, "
                + "or add --restart to discard its committed batches"
        case .checkpointNotContinued(let path, let committed):
            return "\(path) holds an unfinished checkpointed import of this run (\(committed) committed). Nothing was changed. "
                + "Add --resume to continue it, or --restart to discard its committed batches"
        case .notEnoughDisk(let what, let need, let purpose, let free, let scalable):
            return "\(what) needs about \(DiskNeed.describe(need)) for \(purpose); \(DiskNeed.describe(free)) free. "
                + (scalable
                    ? "Choose a smaller --scale, or free some space"
                    : "Free some space there, or point TMPDIR (the scratch stores) and --db (kept stores) at a larger disk")
        case .unwritableStorePath(let path, let reason):
            return "cannot keep a store at \(path): \(reason); choose another --db"
        case .notEnoughMemory(let what, let need, let available, let scalable):
            return "\(what) needs about \(DiskNeed.describe(need)) of memory for the record buffers the ceiling keeps until its one "
                + "transaction commits; \(DiskNeed.describe(available)) available. "
                + (scalable ? "Choose a smaller --scale" : "Import a smaller payload, or run where more memory is available")
        case .storeInUse(let path, let holder):
            return "\(path) is in use by \(holder); wait for it to finish or choose another --db"
        case .notOurStore(let path, let found):
            return "will not write a store at '\(path)': it holds \(found), which bench did not create and does not replace. "
                + "Choose another path, or move that away yourself"
        }
    }
}

extension RunRefusal.PreloadProblem {
    /// What the user reads after the preload's text.
    var text: String {
        switch self {
        case .notAFraction: return "expected overlap=X,changed=Y with X and Y between 0 and 1"
        case .unknownName(let name): return "unknown '\(name)'; expected overlap and changed"
        case .noOverlap: return "overlap=X is required"
        }
    }
}
