/// The mapping layer's one error (mapping files, the paths they hold, the schemas they declare):
/// where (file, line and column, 1-based) and what is wrong, so a user fixes the file without
/// reading our code.
package struct MappingError: Error, Equatable, Sendable, Codable, CustomStringConvertible {
    /// The mapping file; nil for declarations made in code (a scenario's own schema) or before the
    /// loader has placed the problem in its file.
    package var file: String?
    /// nil when the problem belongs to the whole file (it cannot be read, it is empty).
    package var line: Int?
    package var column: Int?
    /// What is wrong (`MappingProblem`), worded by its `description`.
    package let problem: MappingProblem

    package init(file: String?, line: Int? = nil, column: Int? = nil, problem: MappingProblem) {
        self.file = file
        self.line = line
        self.column = column
        self.problem = problem
    }

    package var description: String {
        guard let file else { return problem.description }
        guard let line else { return "\(file): \(problem)" }
        return "\(file):\(line):\(column ?? 1): \(problem)"
    }
}
