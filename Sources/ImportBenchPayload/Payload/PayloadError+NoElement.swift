extension PayloadError {
    /// How errors name a payload that holds nothing to read: `an empty file`, or with what it does
    /// hold (`an empty file (only blank lines)`) and whether it was gzip-compressed (`an empty file
    /// (a gzip of nothing)`). `bytes` is how many (inflated) bytes it holds, all of them `blank`.
    static func emptyFile(bytes: Int, blank: String = "only whitespace", compressed: Bool) -> String {
        switch (bytes, compressed) {
        case (0, false): return "an empty file"
        case (0, true): return "an empty file (a gzip of nothing)"
        case (_, false): return "an empty file (\(blank))"
        case (_, true): return "an empty file (\(blank), gzip-compressed)"
        }
    }

    /// A document whose collections, several of them, all hold no element; at the end of the last.
    static func noElement(inCollections names: [String], file: String, byteOffset: Int?) -> PayloadError {
        PayloadError(
            file: file, byteOffset: byteOffset, path: nil, expected: .atLeastOne(.elementInCollections(names)), found: "every one of them empty")
    }
}
