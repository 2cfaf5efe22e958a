import Foundation
import Testing

/// Every relative link of the repository's Markdown pages names a file or folder that exists, and
/// every link to a heading names a heading that exists, so a page, section or example that moves
/// takes its links with it.
@Suite("Links between the documents")
struct DocumentLinksTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The Markdown files of the repository, outside build folders.
    static func pages() throws -> [URL] {
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        var pages: [URL] = []
        while let url = enumerator?.nextObject() as? URL {
            let relative = url.path.dropFirst(root.path.count)
            if relative.contains("/.build") || relative.contains("/.git") {
                enumerator?.skipDescendants()
                continue
            }
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

    /// The targets of `[text](target)` links that name a heading: `page.md#anchor`, or `#anchor` in the page itself.
    static func headingLinks(in text: String) -> [String] {
        text.matches(of: /\]\(([^)\s]+)\)/).map { String($0.1) }.filter { target in
            target.contains("#") && !target.hasPrefix("http://") && !target.hasPrefix("https://") && !target.hasPrefix("mailto:")
        }
    }

    /// The anchors GitHub gives a page's headings (outside fenced code): lower case, punctuation other
    /// than `-` and `_` dropped, spaces as `-`, and a repeated one numbered (`-1`, `-2`).
    static func anchors(in text: String) -> Set<String> {
        var anchors: Set<String> = []
        var seen: [String: Int] = [:]
        var fenced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                fenced.toggle()
                continue
            }
            let level = line.prefix { $0 == "#" }.count
            guard !fenced, (1...6).contains(level), line.dropFirst(level).first == " " else { continue }
            let heading = line.dropFirst(level).trimmingCharacters(in: .whitespaces).lowercased()
            let kept = heading.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || "-_ ".unicodeScalars.contains($0) }
            let slug = String(kept).replacingOccurrences(of: " ", with: "-")
            let repeats = seen[slug, default: 0]
            seen[slug] = repeats + 1
            anchors.insert(repeats == 0 ? slug : "\(slug)-\(repeats)")
        }
        return anchors
    }

    @Test("every link to a heading names a heading of that page")
    func headingLinksResolve() throws {
        var broken: [String] = []
        for page in try Self.pages() {
            let text = try String(contentsOf: page, encoding: .utf8)
            for link in Self.headingLinks(in: text) {
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let target = parts[0].isEmpty ? page : page.deletingLastPathComponent().appendingPathComponent(parts[0]).standardizedFileURL
                guard target.pathExtension == "md", let targetText = try? String(contentsOf: target, encoding: .utf8) else { continue }
                if !Self.anchors(in: targetText).contains(parts[1]) {
                    broken.append("\(page.path.dropFirst(Self.root.path.count + 1)): \(link)")
                }
            }
        }
        #expect(broken.isEmpty, "links to headings that are not there (moved or renamed?): \(broken.joined(separator: "; "))")
    }

    @Test("headings give GitHub's anchors")
    func anchorFinder() {
        let page =
            "# Title\n## Options of `bench run`\n```\n# not a heading\n```\n## The CSV\n## The CSV\n#hashtag\n### seed-db, and C++: what's kept?"
        #expect(Self.anchors(in: page) == ["title", "options-of-bench-run", "the-csv", "the-csv-1", "seed-db-and-c-whats-kept"])
        #expect(Self.headingLinks(in: "[a](docs/a.md#x), [b](#y), [c](https://x.org/#z), [d](docs/d.md)") == ["docs/a.md#x", "#y"])
    }

    @Test("the link finder sees relative links and leaves web addresses and anchors")
    func finder() {
        #expect(Self.relativeLinks(in: "see [a](docs/a.md), [b](https://x.org/b), [c](#c) and [d](../d.md#part)") == ["docs/a.md", "../d.md#part"])
    }
}
