/// OWASP's defence against CSV injection, for the text cells of the results CSV: a cell that begins
/// with `=`, `+`, `-`, `@`, a tab or a carriage return is a formula to a spreadsheet (a mapping named
/// `=HYPERLINK(...)` would run), so it is written after a single quote, which makes it text. A cell
/// that begins with a quote itself gets one more, so that reading removes exactly what writing
/// added. Only text columns are written so: a number stays a number (-0.5 in a numeric column is no
/// formula), and `ResultsFile` restores the text columns it reads.
package enum SpreadsheetText {
    /// What makes a spreadsheet read a cell as a formula, and the quote itself.
    private static let guarded: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r", "'"]

    /// `text` as a text cell of the CSV: after a `'` when it begins with `=`, `+`, `-`, `@`, a tab,
    /// a carriage return or `'`; unchanged otherwise.
    package static func neutralised(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, guarded.contains(first) else { return text }
        return "'" + text
    }

    /// A text cell as read: without the `'` that `neutralised` added. A quote before anything else
    /// was never added by bench (a file written before the rule, or by hand) and is kept, so such a
    /// file reads as it always did.
    package static func restored(_ cell: String) -> String {
        var scalars = cell.unicodeScalars.makeIterator()
        guard scalars.next() == "'", let second = scalars.next(), guarded.contains(second) else { return cell }
        return String(cell.unicodeScalars.dropFirst())
    }
}
