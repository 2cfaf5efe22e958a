/// A value written in JSON as the text the command line takes (`2x`, `all`) and parsed back, so a
/// spec reads as the command that asked for it.
package protocol CodableAsText: Codable, CustomStringConvertible {
    init?(parsing text: String)
    /// What the value is, for the error a text that does not parse raises (`a scale`).
    static var textMeaning: String { get }
}

extension CodableAsText {
    package init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = Self(parsing: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not \(Self.textMeaning): \(text)"))
        }
        self = value
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
