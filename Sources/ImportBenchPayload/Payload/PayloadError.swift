/// The payload layer's one error: which file, where in it, and what was expected there.
package struct PayloadError: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    package let file: String
    /// Byte offset in the file where the problem was found, when known.
    package let byteOffset: Int?
    /// The record path, such as `channels[3].messages[17].user.id`, when known.
    package let path: String?
    /// What was expected there: a case, written out only by its `description`.
    package let expected: PayloadExpectation
    package let found: String
    /// The line and column (1-based, in bytes) where a line-oriented payload (JSON Lines) has the
    /// problem: said instead of the byte offset, which stays for tools.
    package var line: Int?
    package var column: Int?

    /// `found` and `path` come from the input (a key, a column name, a value); each is cut to
    /// `longestQuote` characters, so no input can make an error line long.
    package init(file: String, byteOffset: Int?, path: String?, expected: PayloadExpectation, found: String) {
        self.file = file
        self.byteOffset = byteOffset
        self.path = path.map(Self.shortened)
        self.expected = expected
        self.found = Self.shortened(found)
    }

    /// The most of the input an error quotes, in characters.
    package static let longestQuote = 200

    static func shortened(_ text: String) -> String {
        guard text.utf8.count > longestQuote else { return text }
        return String(text.prefix(longestQuote)) + "… (cut at \(longestQuote) characters)"
    }

    /// Whether it concerns the document as a whole (its root, the collection a reader looks for, a
    /// feed's files), not one of its elements or rows: a payload of another shape than the reader's.
    package var isAtDocumentRoot: Bool {
        guard line == nil else { return false }
        guard let path else { return true }
        return !path.contains("[") && !path.contains(" line ")
    }

    package var description: String {
        var location = file
        if let line {
            location += " line \(line)" + (column.map { ", column \($0)" } ?? "")
        } else if let byteOffset {
            location += " at byte \(byteOffset)"
        }
        if let path { location += " (\(path))" }
        return "\(location): expected \(expected), found \(found)"
    }
}
