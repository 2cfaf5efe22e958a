import Foundation
import ImportBenchCore

/// What a `bench measure-one` child tells the `bench run` that started it, on the child's own
/// standard output: progress while it imports, then its measurement or its failure, as values
/// (or, for a C reference replay, the replay's measurement).
/// The exit status only confirms what the last message said.
enum ChildMessage: Codable {
    /// Occurrences read so far.
    case progress(occurrences: Int)
    case result(ImportMeasurement)
    case failure(ImportStop)
    /// A C reference replay's measurement (`bench measure-one --c-reference`).
    case cReference(CReference.Measurement)
}

/// Frames messages as a 4-byte big-endian length, then the message as JSON: a reader never
/// guesses where one ends, and anything else on the stream (a stray print) is caught as such.
enum ChildMessageFraming {
    /// Larger frames mean the stream is not ours: a measurement is a few KB.
    static let maximumLength = 16 << 20

    static func encode(_ message: ChildMessage) throws -> Data {
        let body = try JSONEncoder().encode(message)
        var length = UInt32(body.count).bigEndian
        var frame = Data(bytes: &length, count: 4)
        frame.append(body)
        return frame
    }

    /// The next message from `handle`; nil at the end of the stream.
    static func read(from handle: FileHandle) throws -> ChildMessage? {
        let prefix = handle.readData(ofLength: 4)
        if prefix.isEmpty { return nil }
        guard prefix.count == 4 else { throw CommandFailure.child(.truncated(expected: 4, got: prefix.count)) }
        let length = prefix.reduce(0) { $0 << 8 | Int($1) }
        guard length <= maximumLength else { throw CommandFailure.child(.notAMessage(length: length)) }
        let body = handle.readData(ofLength: length)
        guard body.count == length else { throw CommandFailure.child(.truncated(expected: length, got: body.count)) }
        do {
            return try JSONDecoder().decode(ChildMessage.self, from: body)
        } catch {
            throw CommandFailure.child(.undecodable(error))
        }
    }
}
