/// A mapping file that cannot be used: where (file, line and column, 1-based) and what is wrong,
/// so a user fixes the file without reading our code.
public struct MappingError: Error, Equatable, CustomStringConvertible {
    public let file: String
    /// nil when the problem belongs to the whole file (it cannot be read, it is empty).
    public let line: Int?
    public let column: Int?
    public let problem: String

    public init(file: String, line: Int? = nil, column: Int? = nil, _ problem: String) {
        self.file = file
        self.line = line
        self.column = column
        self.problem = problem
    }

    public var description: String {
        guard let line else { return "\(file): \(problem)" }
        return "\(file):\(line):\(column ?? 1): \(problem)"
    }
}
