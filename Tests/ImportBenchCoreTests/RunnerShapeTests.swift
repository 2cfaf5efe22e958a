import Foundation
import Testing

/// The runner stays without special cases (issue 33): no function in it longer than a screen, and
/// no file or type of it named after one strategy.
@Suite("The runner's shape")
struct RunnerShapeTests {
    static let runner = DocumentLinksTests.root.appendingPathComponent("Sources/ImportBenchCore/Runner")
    static let longest = 80

    /// The Swift files of the runner, by name.
    static func files() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: runner, includingPropertiesForKeys: nil).filter { $0.pathExtension == "swift" }
    }

    /// Each function's (or initializer's) first line and length in lines, from its declaration to
    /// its closing brace. Braces in string literals and comments do not count.
    static func functionLengths(in text: String) -> [(line: Int, lines: Int)] {
        let lines = text.components(separatedBy: "\n").map { line in
            line.replacing(/"(\\.|[^"\\])*"/, with: "\"\"").split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first.map(
                String.init) ?? ""
        }
        var lengths: [(line: Int, lines: Int)] = []
        let declaration =
            /^\s*(@\w+\s+)*((private|fileprivate|internal|package|public|static|mutating|override|required|convenience)(\(set\))?\s+)*(func\s+[^\s(<]+|init[?!]?)\s*[(<]/
        for (start, line) in lines.enumerated() where line.contains(declaration) {
            var depth = 0
            var opened = false
            for index in start..<lines.count {
                for character in lines[index] {
                    if character == "{" {
                        depth += 1
                        opened = true
                    } else if character == "}" {
                        depth -= 1
                    }
                }
                if opened && depth <= 0 {
                    lengths.append((start + 1, index - start + 1))
                    break
                }
                // A requirement or a call, not a declaration with a body.
                if !opened && index - start > 8 { break }
            }
        }
        return lengths
    }

    @Test("the length counter counts a function from its declaration to its closing brace, braces in strings aside")
    func counterCounts() {
        let body = Array(repeating: "    x += 1", count: 79).joined(separator: "\n")
        let text = "func f() {\n    let s = \"}\" // }\n\(body)\n}\n    private static func g<T>(_ t: T) { }\nlet x = Foo.init(y) { 1 }\n"
        #expect(Self.functionLengths(in: text).map(\.lines) == [82, 1])
    }

    @Test("no function in the runner is longer than 80 lines")
    func shortFunctions() throws {
        var long: [String] = []
        let files = try Self.files()
        #expect(files.count > 10)
        for file in files {
            for function in Self.functionLengths(in: try String(contentsOf: file, encoding: .utf8)) where function.lines > Self.longest {
                long.append("\(file.lastPathComponent):\(function.line): \(function.lines) lines")
            }
        }
        #expect(long.isEmpty, "\(long)")
    }

    @Test("no file or type in the runner is named after seed-copy")
    func noStrategyNamed() throws {
        for file in try Self.files() {
            #expect(!file.lastPathComponent.lowercased().contains("seed"), "\(file.lastPathComponent)")
            let text = try String(contentsOf: file, encoding: .utf8)
            let types = text.matches(of: /\b(struct|enum|class|protocol|actor|typealias)\s+(\w+)/).map { String($0.2) }
            #expect(!types.contains { $0.lowercased().contains("seed") }, "\(file.lastPathComponent): \(types)")
        }
    }
}
