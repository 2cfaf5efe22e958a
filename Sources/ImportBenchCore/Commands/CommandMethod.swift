/// A user's importer given as a program, in any language (`bench run --command NAME=COMMAND`):
/// bench creates the store as for its own strategies, runs the command through `/bin/sh -c` with the
/// payload and the store named in its environment and in `{payload}` and `{db}`, measures the whole
/// process, counts what it executes through the shared libsqlite3, and verifies what it wrote.
package struct CommandMethod: Sendable, Equatable, Codable {
    /// Its name in every table and CSV, as a strategy's.
    package let name: String
    /// What `/bin/sh -c` runs, its placeholders not yet replaced.
    package let commandLine: String

    package init(name: String, commandLine: String) throws(ImportError) {
        guard StrategyCatalog.isValidName(name) else { throw .invalidName(name, origin: .command) }
        guard !commandLine.allSatisfy(\.isWhitespace) else { throw .malformedCommand("\(name)=\(commandLine)") }
        self.name = name
        self.commandLine = commandLine
    }

    /// `NAME=COMMAND`, as the option takes it.
    package init(parsing text: String) throws(ImportError) {
        guard let equals = text.firstIndex(of: "=") else { throw .malformedCommand(text) }
        try self.init(name: String(text[..<equals]), commandLine: String(text[text.index(after: equals)...]))
    }

    /// The command line with `{payload}` and `{db}` replaced by the paths, quoted for the shell, in
    /// one pass (a path that itself holds `{db}` stays as it is).
    package func resolved(payload: String, database: String) -> String {
        let values = ["{payload}": Self.shellQuoted(payload), "{db}": Self.shellQuoted(database)]
        var result = ""
        var rest = commandLine[...]
        while let brace = rest.firstIndex(of: "{") {
            result += rest[..<brace]
            rest = rest[brace...]
            if let (placeholder, value) = values.first(where: { rest.hasPrefix($0.key) }) {
                result += value
                rest = rest.dropFirst(placeholder.count)
            } else {
                result.append("{")
                rest = rest.dropFirst()
            }
        }
        return result + rest
    }

    /// `text` as one word for `sh`: inside single quotes, each single quote closed, escaped and reopened.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
