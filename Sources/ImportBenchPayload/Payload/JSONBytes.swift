/// Bytes the JSON splitter and tape compare against, named once for both.
extension UInt8 {
    package static let quote = UInt8(ascii: "\"")
    package static let backslash = UInt8(ascii: "\\")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let comma = UInt8(ascii: ",")
    static let colon = UInt8(ascii: ":")
    static let space = UInt8(ascii: " ")
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let tab = UInt8(ascii: "\t")
    static let minus = UInt8(ascii: "-")
    static let plus = UInt8(ascii: "+")
    static let dot = UInt8(ascii: ".")
    static let lowercaseA = UInt8(ascii: "a")
    static let lowercaseZ = UInt8(ascii: "z")
    static let lowercaseT = UInt8(ascii: "t")
    static let lowercaseF = UInt8(ascii: "f")
    static let lowercaseN = UInt8(ascii: "n")
    static let slash = UInt8(ascii: "/")
    static let digitZero = UInt8(ascii: "0")
    static let digitNine = UInt8(ascii: "9")
    static let lowercaseB = UInt8(ascii: "b")
    static let lowercaseE = UInt8(ascii: "e")
    static let lowercaseR = UInt8(ascii: "r")
    static let lowercaseU = UInt8(ascii: "u")
}

/// The start of a byte run for an error message: enough to recognise, never a megabyte string.
enum JSONBytes {
    /// The high bit of each byte of `word` (first byte lowest) that may be '"' or '\\': the "has zero
    /// byte" bit trick. Its false positives only sit above a true one, so the lowest set bit is exact.
    @inline(__always)
    static func quoteOrBackslashMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = word ^ (ones &* UInt64(UInt8.quote))
        let backslashes = word ^ (ones &* UInt64(UInt8.backslash))
        return ((quotes &- ones) & ~quotes | (backslashes &- ones) & ~backslashes) & 0x8080_8080_8080_8080
    }

    /// The high bit of each byte of `word` that may be '"', '{', '}', '[' or ']', exact in its lowest
    /// set bit as `quoteOrBackslashMask` is. Setting bit 5 of every byte folds '[' into '{' and ']'
    /// into '}' (no other byte lands on either), so three comparisons cover the five bytes.
    @inline(__always)
    static func quoteOrBracketMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let folded = word | (ones &* 0x20)
        let quotes = word ^ (ones &* UInt64(UInt8.quote))
        let opens = folded ^ (ones &* UInt64(UInt8.openBrace))
        let closes = folded ^ (ones &* UInt64(UInt8.closeBrace))
        return ((quotes &- ones) & ~quotes | (opens &- ones) & ~opens | (closes &- ones) & ~closes) & 0x8080_8080_8080_8080
    }

    static func snippet(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let shown = String(decoding: bytes.prefix(40), as: UTF8.self)
        return "'\(shown)\(bytes.count > 40 ? "…" : "")'"
    }
}
