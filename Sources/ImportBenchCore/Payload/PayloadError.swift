/// The payload layer's one error: which file, where in it, and what was expected there.
public struct PayloadError: Error, Sendable, Equatable, CustomStringConvertible {
    public let file: String
    /// Byte offset in the file where the problem was found, when known.
    public let byteOffset: Int?
    /// The record path, such as `channels[3].messages[17].user.id`, when known.
    public let path: String?
    public let expected: String
    public let found: String

    public init(file: String, byteOffset: Int?, path: String?, expected: String, found: String) {
        self.file = file
        self.byteOffset = byteOffset
        self.path = path
        self.expected = expected
        self.found = found
    }

    public var description: String {
        var location = file
        if let byteOffset { location += " at byte \(byteOffset)" }
        if let path { location += " (\(path))" }
        return "\(location): expected \(expected), found \(found)"
    }
}
