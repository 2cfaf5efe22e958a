/// How a CSV payload's bytes are text. GTFS says UTF-8, but feeds are often published in Latin-1 or
/// Windows-1252; whatever the file's encoding, stored text is always valid UTF-8. `auto` reads a
/// file as UTF-8 when all of it is valid UTF-8, and as Windows-1252 (which every byte sequence is)
/// otherwise, and says which it chose.
package enum TextEncoding: String, Codable, Sendable, CaseIterable {
    case utf8 = "utf-8"
    case latin1 = "latin-1"
    case windows1252 = "windows-1252"
    case auto

    /// The encoding `auto` stands for in the file at `path`: one pass over it, a word at a time
    /// through ASCII.
    package static func detect(path: String) throws -> TextEncoding {
        try UTF8Validator.isValid(path: path) ? .utf8 : .windows1252
    }

    /// The bytes as text: each byte one character (Latin-1 is the first 256 code points;
    /// Windows-1252 differs at 0x80-0x9F). Not for `.utf8` or `.auto`, which are not transcoded.
    func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.reserveCapacity(bytes.count)
        for byte in bytes {
            let value = self == .windows1252 && (0x80...0x9F).contains(byte) ? Self.windows1252High[Int(byte) - 0x80] : UInt32(byte)
            scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
        }
        return String(scalars)
    }

    /// Windows-1252's 0x80-0x9F; the five bytes it leaves undefined stand for the C1 control of
    /// the same value, as the WHATWG Encoding Standard reads them.
    private static let windows1252High: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]
}
