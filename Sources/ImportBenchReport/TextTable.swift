import Foundation

/// Aligns columns for a terminal: text left, numbers right.
package struct TextTable {
    package enum Alignment { case left, right }

    package let headers: [String]
    package let alignments: [Alignment]
    package private(set) var rows: [[String]] = []

    package init(headers: [String], alignments: [Alignment]) {
        self.headers = headers
        self.alignments = alignments
    }

    package mutating func append(_ row: [String]) { rows.append(row) }

    /// A GitHub-flavoured Markdown table, numbers right-aligned, for a pull-request comment. Every
    /// cell is escaped (`MarkdownText`): a name can add no column, image, link or HTML.
    package func renderMarkdown() -> String {
        func line(_ cells: [String]) -> String { "| " + cells.map(MarkdownText.escape).joined(separator: " | ") + " |" }
        let rule = "|" + alignments.map { $0 == .left ? "---|" : "---:|" }.joined()
        return ([line(headers), rule] + rows.map(line)).joined(separator: "\n") + "\n"
    }

    package func render() -> String {
        let widths = headers.indices.map { column in
            ([headers[column]] + rows.map { $0[column] }).map(\.count).max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return alignments[column] == .left ? cell + padding : padding + cell
            }.joined(separator: "  ")
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(headers), rule] + rows.map(line)).map { $0.replacingTrailingSpaces() }.joined(separator: "\n") + "\n"
    }
}

extension String {
    fileprivate func replacingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
