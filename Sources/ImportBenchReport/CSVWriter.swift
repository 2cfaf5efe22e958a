import Foundation

/// RFC 4180 CSV: fields with a comma, quote, CR or LF are quoted and their quotes doubled; CRLF ends a record.
package enum CSVWriter {
    package static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    package static func record(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }
}
