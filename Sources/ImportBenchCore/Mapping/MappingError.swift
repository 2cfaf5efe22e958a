/// A mapping file that cannot be used: where (file, line and column, 1-based) and what is wrong,
/// so a user fixes the file without reading our code.
package struct MappingError: Error, Equatable, CustomStringConvertible {
    package let file: String
    /// nil when the problem belongs to the whole file (it cannot be read, it is empty).
    package let line: Int?
    package let column: Int?
    package let problem: String

    package init(file: String, line: Int? = nil, column: Int? = nil, _ problem: String) {
        self.file = file
        self.line = line
        self.column = column
        self.problem = problem
    }

    package var description: String {
        guard let line else { return "\(file): \(problem)" }
        return "\(file):\(line):\(column ?? 1): \(problem)"
    }
}
