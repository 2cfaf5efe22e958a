/// Text made safe for XML and HTML content and attribute values: every label in a report comes
/// from a CSV someone else wrote, so none goes out unescaped.
enum XMLText {
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default:
                // Control characters other than tab and line breaks are not allowed in XML 1.0 at all.
                if let scalar = character.unicodeScalars.first, scalar.value < 0x20, ![0x09, 0x0A, 0x0D].contains(scalar.value) {
                    escaped += "\u{FFFD}"
                } else {
                    escaped.append(character)
                }
            }
        }
        return escaped
    }
}
