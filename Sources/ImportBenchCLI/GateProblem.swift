import ImportBenchCore

/// Why the gate could not measure the base beside this build (thrown as `CommandFailure.gate`):
/// each names what the user must fix, and none is ever a silent pass.
enum GateProblem: Equatable, CustomStringConvertible {
    /// The baseline names no revision (recorded before csv_version 7) and none was given.
    case noRevision(baseline: String, csvVersion: Int)
    /// The revision was recorded from a tree with uncommitted code: nothing can rebuild it.
    case dirtyRevision(String, baseline: String)
    /// The baseline's folder is not inside a git checkout.
    case notARepository(folder: String)
    /// The repository does not hold the revision (a shallow clone, a commit that never landed).
    case unknownRevision(String, repository: String)
    /// A program the gate needs could not be started (git, tar, swift).
    case cannotStart(program: String, reason: String)
    /// A step exited non-zero: exporting or building the base.
    case stepFailed(step: String, status: Int32)
    /// A build's run of the preset exited non-zero (exit 3: it wrote other data than the payload's).
    case runFailed(side: String, binary: String, status: Int32, errorTail: String)
    /// The folder given to keep the base in holds something else.
    case foreignFolder(String)
    /// A stopping signal arrived; what the gate made is removed.
    case interrupted

    var description: String {
        switch self {
        case .noRevision(let baseline, let version):
            return "\(baseline) records no git_revision (csv_version \(version); the column came with 7): re-record it from a clean checkout "
                + "(Results/README.md), or name the base with --base-revision REV"
        case .dirtyRevision(let revision, let baseline):
            return "\(baseline) was recorded from uncommitted code (git_revision \(revision)), which no build can reproduce: "
                + "commit the code, then re-record the baseline from that clean checkout"
        case .notARepository(let folder):
            return "\(folder) is not inside a git checkout: the gate rebuilds the base from its repository (or give --base-bench PATH)"
        case .unknownRevision(let revision, let repository):
            return "the base revision \(revision) is not in the repository at \(repository): a shallow clone lacks it (fetch the full history), "
                + "or the baseline was recorded from a commit that never landed (re-record it)"
        case .cannotStart(let program, let reason):
            return "cannot start \(program): \(reason)" + (program == "swift" ? " (the gate builds the base with it; or give --base-bench PATH)" : "")
        case .stepFailed(let step, let status):
            return "\(step) failed with exit status \(status) (its output is above)"
        case .runFailed(let side, let binary, let status, let tail):
            return "the \(side) build's run (\(binary)) " + (status == 0 ? "" : "failed with exit status \(status)")
                + (tail.isEmpty ? "" : (status == 0 ? tail : ":\n" + tail))
        case .foreignFolder(let folder):
            return "\(folder) holds files the gate did not put there: give an empty or new folder to --base-folder"
        case .interrupted:
            return "stopped; the base's exported tree and build removed"
        }
    }
}
