/// Text made inert in Markdown: every name in a Markdown report (a strategy, a mapping's scenario, a
/// CPU model, a digest) comes from a CSV or a command line someone else wrote, so none goes out able
/// to add a table column, an image, a link, a code span or inline HTML (GitHub renders it), or to
/// end its line. It renders as the text it was, a line break as a space.
package enum MarkdownText {
    package static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            if character.isNewline {
                escaped += " "
                continue
            }
            switch character {
            // The backslash first, so that a name's own backslash cannot undo the escape of a pipe after it.
            case "\\", "|", "[", "]", "!", "`": escaped += "\\" + String(character)
            // A heading or a quote only at the start of a line, which a name may be.
            case "#" where escaped.isEmpty: escaped += "\\#"
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
