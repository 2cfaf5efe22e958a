/// A table a layer above the reporters adds to the report page (the expectations' verdicts): its
/// heading, one line saying what it shows, and its cells as text, escaped where the page is written.
package struct ReportTable: Sendable, Equatable {
    package let title: String
    package let explanation: String
    package let headers: [String]
    package let rows: [[String]]

    package init(title: String, explanation: String, headers: [String], rows: [[String]]) {
        self.title = title
        self.explanation = explanation
        self.headers = headers
        self.rows = rows
    }
}
