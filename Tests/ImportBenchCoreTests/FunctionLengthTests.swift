import Foundation
import Testing

/// Every function reads in one screen (issue 48): at most `RunnerShapeTests.longest` lines from its
/// declaration to its closing brace, in every file of Sources, the runner's rule made everyone's.
/// A hot path that needs more would be listed in `exceptions` with the performance-log entry that
/// earns it; none does today.
@Suite("Function length in every source file")
struct FunctionLengthTests {
    static let sources = DocumentLinksTests.root.appendingPathComponent("Sources")
    /// "File.swift:function" of functions allowed to be longer, each with the performance-log
    /// entry that measured why.
    static let exceptions: [String: String] = [:]

    /// Every Swift file under Sources.
    static func files() throws -> [URL] {
        let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        return (enumerator?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "swift" }
    }

    @Test("no function in Sources is longer than 80 lines")
    func shortFunctions() throws {
        let files = try Self.files()
        #expect(files.count > 150)
        var long: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let lines = text.components(separatedBy: "\n")
            for function in RunnerShapeTests.functionLengths(in: text) where function.lines > RunnerShapeTests.longest {
                let declaration = lines[function.line - 1].trimmingCharacters(in: .whitespaces)
                let name = declaration.firstMatch(of: /(func\s+[^\s(<]+|init)/).map { String($0.1) } ?? declaration
                guard Self.exceptions["\(file.lastPathComponent):\(name)"] == nil else { continue }
                long.append(
                    "\(file.path.replacingOccurrences(of: Self.sources.path + "/", with: "")):\(function.line) \(name): \(function.lines) lines")
            }
        }
        #expect(long.isEmpty, "\(long.joined(separator: "\n"))")
    }
}
