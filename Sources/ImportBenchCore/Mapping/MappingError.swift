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
    package let problem: Problem

    /// What is wrong.
    package enum Problem: Equatable, Sendable, Codable, CustomStringConvertible {
        /// The declaration at that place, and what it should be, in the mapping's own terms.
        case invalid(String)
        /// A path that is not `member.member[position]...`: why.
        case pathSyntax(String)
        /// The declared entities do not make a store.
        case schema(SchemaProblem)
        /// The file is past one of the loader's limits (`MappingLimit`): the limit it had, and how
        /// much was found (nil: more than the limit, read no further).
        case overLimit(MappingLimit, limit: Int, found: Int?)

        package var description: String {
            switch self {
            case .invalid(let text): return text
            case .pathSyntax(let reason): return reason
            case .schema(let problem): return problem.description
            case .overLimit(let what, let limit, let found): return what.sentence(limit: limit, found: found)
            }
        }
    }

    package init(file: String?, line: Int? = nil, column: Int? = nil, problem: Problem) {
        self.file = file
        self.line = line
        self.column = column
        self.problem = problem
    }

    /// A declaration the loader refuses, at `file`'s `line` and `column` when known.
    package init(file: String?, line: Int? = nil, column: Int? = nil, _ invalid: String) {
        self.init(file: file, line: line, column: column, problem: .invalid(invalid))
    }

    package var description: String {
        guard let file else { return problem.description }
        guard let line else { return "\(file): \(problem)" }
        return "\(file):\(line):\(column ?? 1): \(problem)"
    }
}
