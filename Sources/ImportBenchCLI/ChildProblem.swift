import Foundation

/// What went wrong with a measuring child process (`bench measure-one`), thrown as
/// `CommandFailure.child`: its message stream broke off or held something else, or it ended
/// without a message saying how.
indirect enum ChildProblem: CustomStringConvertible {
    /// The stream ended inside a message.
    case truncated(expected: Int, got: Int)
    /// A length no message of ours has: something else wrote on the stream.
    case notAMessage(length: Int)
    /// A message this bench cannot decode: the decoder's error.
    case undecodable(any Error)
    /// It ended without a message saying how: `what` it was running, its exit status, its standard
    /// error, and what was wrong with its stream, if anything.
    case endedSilently(what: String, status: Int32, diagnostics: String, stream: ChildProblem?)

    var description: String {
        switch self {
        case .truncated(let expected, let got):
            return "its message stream ended inside a message (\(got) of \(expected) bytes)"
        case .notAMessage(let length):
            return "it wrote something that is not a message (a length of \(length) bytes)"
        case .undecodable(let error):
            return "it wrote a message this bench cannot read (\(error)); is it the same build?"
        case .endedSilently(let what, let status, let diagnostics, let stream):
            let reason = diagnostics.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "bench: ", with: "")
            var explanation = reason.isEmpty ? "\(what) exited with \(status)" : reason
            if let stream { explanation += "; \(stream)" }
            return explanation
        }
    }
}
