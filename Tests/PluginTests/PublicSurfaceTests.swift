import Foundation
import Testing

/// The plug-in library's promise: what a package outside this one can name, each symbol documented.
/// The surface is read from the sources of the modules `ImportBench` re-exports; everything else of
/// the package is `package`, which another package cannot see (the GRDB example builds on the rest).
@Suite("The public surface")
struct PublicSurfaceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let modules = ["ImportBench", "ImportBenchCore", "ImportBenchStore"]
    static let listing = root.appendingPathComponent("Tests/PluginTests/public-api.txt")
    static let privateModules = ["ImportBenchCLI", "ImportBenchReport"]

    /// One public declaration (or case of a public enum): where it is, its line, and whether a `///`
    /// comment stands above it (attributes between them allowed).
    struct Declaration {
        let file: String
        let line: Int
        let text: String
        let documented: Bool
    }

    static func declarations(in modules: [String]) throws -> [Declaration] {
        var found: [Declaration] = []
        for module in modules {
            let folder = root.appendingPathComponent("Sources/\(module)")
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
            for file in files.filter({ $0.hasSuffix(".swift") }).sorted() {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                found += declarations(in: text.components(separatedBy: "\n"), file: "\(module)/\(file)")
            }
        }
        return found
    }

    static func declarations(in lines: [String], file: String) -> [Declaration] {
        var found: [Declaration] = []
        var enumDepth: Int?  // brace depth inside a public enum's body, while in one
        var depth = 0
        for (index, line) in lines.enumerated() {
            let code = line.trimmingCharacters(in: .whitespaces)
            let isPublic = code.range(of: #"^(@\w+(\([^)]*\))? )*(override |final |nonisolated )*public "#, options: .regularExpression) != nil
            let isCase = enumDepth == depth - 1 && code.hasPrefix("case ")
            if isPublic || isCase {
                var above = index - 1
                while above >= 0,
                    lines[above].trimmingCharacters(in: .whitespaces).range(of: #"^@\w+(\([^)]*\))?$"#, options: .regularExpression) != nil
                {
                    above -= 1
                }
                let documented = above >= 0 && lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("///")
                found.append(Declaration(file: file, line: index + 1, text: code, documented: documented))
            }
            if isPublic && code.contains("enum ") { enumDepth = depth }
            depth += code.filter { $0 == "{" }.count - code.filter { $0 == "}" }.count
            if let open = enumDepth, depth <= open { enumDepth = nil }
        }
        return found
    }

    @Test("documents every public declaration and every case of a public enum")
    func everythingDocumented() throws {
        let undocumented = try Self.declarations(in: Self.modules).filter { !$0.documented }
        #expect(undocumented.isEmpty, "\(undocumented.map { "\($0.file):\($0.line): \($0.text)" }.joined(separator: "\n"))")
    }

    @Test("is the reviewed one: a change to it updates Tests/PluginTests/public-api.txt in the same commit")
    func matchesTheListing() throws {
        // A declaration's signature, without its body: the listing changes with the API, not the code.
        let surface = try Self.declarations(in: Self.modules).map { declaration in
            "\(declaration.file): \(declaration.text.components(separatedBy: " {")[0])"
        }
        let listed = try String(contentsOf: Self.listing, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(surface == listed, "added: \(Set(surface).subtracting(listed).sorted()), removed: \(Set(listed).subtracting(surface).sorted())")
    }

    @Test("leaves the reporters and the command line to the package")
    func privateModulesHaveNone() throws {
        #expect(try Self.declarations(in: Self.privateModules).isEmpty)
    }

    @Test("the scan finds what it must: a public member, an enum's cases, an undocumented one")
    func scannerSeesDeclarations() {
        let source = [
            "/// Documented.", "public enum Sample {", "    /// A case.", "    case one", "    case two(Int)",
            "    @inlinable", "    public var name: String { \"\" }", "    func hidden() {}", "}", "case outside",
        ]
        let found = Self.declarations(in: source, file: "Sample.swift")
        #expect(found.map(\.line) == [2, 4, 5, 7])
        #expect(found.map(\.documented) == [true, true, false, false])
    }
}
