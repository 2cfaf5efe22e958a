import Foundation
import Testing

/// Every Swift file of the repository is as swift-format (the toolchain's) writes it with the
/// repository's `.swift-format`: one layout, so a change's diff shows what it changes.
@Suite("Formatting")
struct FormattingTests {
    /// The Swift files of the repository, outside build folders, as `scripts/format` lists them.
    static func swiftFiles() -> [String] {
        let root = DocumentLinksTests.root
        var files = [root.appendingPathComponent("Package.swift").path]
        for folder in ["Sources", "Tests", "Examples"] {
            let enumerator = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                if url.lastPathComponent == ".build" {
                    enumerator?.skipDescendants()
                    continue
                }
                if url.pathExtension == "swift" { files.append(url.path) }
            }
        }
        return files.sorted()
    }

    @Test("every Swift file is formatted by swift-format with .swift-format (scripts/format rewrites them)")
    func everyFileIsFormatted() throws {
        let files = Self.swiftFiles()
        #expect(files.count > 100, "found only \(files.count) Swift files under \(DocumentLinksTests.root.path)")
        let lint = try CapturedProcess(
            ["swift", "format", "lint", "--strict", "--configuration", DocumentLinksTests.root.appendingPathComponent(".swift-format").path]
                + files)
        let diagnostics = lint.output
        let lines = diagnostics.split(separator: "\n").prefix(20).joined(separator: "\n")
        #expect(lint.status == 0 && diagnostics.isEmpty, "not as swift-format writes it; run scripts/format:\n\(lines)")
    }
}
