import Foundation
import Testing

/// Every relative link of the repository's Markdown pages names a file or folder that exists, so a
/// page or example that moves takes its links with it.
@Suite("Links between the documents")
struct DocumentLinksTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The Markdown files of the repository, outside build folders.
    static func pages() throws -> [URL] {
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        var pages: [URL] = []
        while let url = enumerator?.nextObject() as? URL {
            let relative = url.path.dropFirst(root.path.count)
            if relative.contains("/.build") || relative.contains("/.git") { enumerator?.skipDescendants(); continue }
            if url.pathExtension == "md" { pages.append(url) }
        }
        return pages
    }

    /// The targets of `[text](target)` links that are neither web addresses nor anchors in the page.
    static func relativeLinks(in text: String) -> [String] {
        let pattern = /\]\(([^)\s]+)\)/
        return text.matches(of: pattern).map { String($0.1) }.filter { target in
            !target.hasPrefix("http://") && !target.hasPrefix("https://") && !target.hasPrefix("mailto:") && !target.hasPrefix("#")
        }
    }

    @Test("every relative link names something that exists")
    func relativeLinksResolve() throws {
        let pages = try Self.pages()
        #expect(pages.contains { $0.lastPathComponent == "README.md" && $0.deletingLastPathComponent().path == Self.root.path })
        var broken: [String] = []
        var checked = 0
        for page in pages {
            let text = try String(contentsOf: page, encoding: .utf8)
            for link in Self.relativeLinks(in: text) {
                let path = String(link.split(separator: "#", maxSplits: 1).first ?? "")
                guard !path.isEmpty else { continue }
                checked += 1
                let target = page.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
                if !FileManager.default.fileExists(atPath: target.path) {
                    broken.append("\(page.path.dropFirst(Self.root.path.count + 1)): \(link)")
                }
            }
        }
        #expect(checked > 0, "the pages link to each other")
        #expect(broken.isEmpty, "broken links: \(broken.joined(separator: "; "))")
    }

    @Test("the README links every page of docs/")
    func readmeLinksEveryPage() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let linked = Set(Self.relativeLinks(in: readme).map { String($0.split(separator: "#").first ?? "") })
        let pages = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("docs").path).filter { $0.hasSuffix(".md") }
        #expect(!pages.isEmpty)
        for page in pages { #expect(linked.contains("docs/\(page)"), "README.md does not link docs/\(page)") }
    }

    @Test("the link finder sees relative links and leaves web addresses and anchors")
    func finder() {
        #expect(Self.relativeLinks(in: "see [a](docs/a.md), [b](https://x.org/b), [c](#c) and [d](../d.md#part)") == ["docs/a.md", "../d.md#part"])
    }
}
