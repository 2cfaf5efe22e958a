/// Work the benchmark does before or beside the imports failed (generating the payload, working out
/// the expected content in its scratch store, replaying the C reference): which step, where, why,
/// and that no import wrote anything because of it.
package struct PreparationError: Error, CustomStringConvertible {
    /// The benchmark's own work, apart from the imports.
    package enum Step: Sendable {
        case generatingPayload
        case workingOutExpectedContent
        case replayingCReference

        var text: String {
            switch self {
            case .generatingPayload: return "generating the payload"
            case .workingOutExpectedContent: return "working out the expected content"
            case .replayingCReference: return "replaying the C reference"
            }
        }
    }

    package let step: Step
    /// The work directory the step wrote in.
    package let directory: String
    /// What failed: a full disk, an I/O error, SQLite's error.
    package let cause: any Error

    package var description: String {
        "\(step.text) in \(directory) failed: \(cause). No store was written by this step; the temporary files are removed"
    }

    /// Runs `body`, turning a failure that is not the payload's (a full disk, an I/O error) into this type.
    static func during<T>(_ step: Step, in directory: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error where error is PayloadError || error is ImportError || error is Interrupted || error is RunRequestError {
            throw error
        } catch {
            throw PreparationError(step: step, directory: directory, cause: error)
        }
    }
}
