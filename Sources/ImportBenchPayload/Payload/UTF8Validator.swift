import Foundation

/// Whether a whole file is valid UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above
/// U+10FFFF), read in chunks with a sequence allowed to span two of them.
enum UTF8Validator {
    /// A gzip file's inflated bytes are what is checked.
    static func isValid(path: String) throws -> Bool {
        let input = try PayloadInput(path: path, expected: .readable(.file))
        let chunkSize = 1 << 20
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
        defer { buffer.deallocate() }
        var carry: [UInt8] = []
        var offset = 0
        while true {
            let received = try input.read(into: buffer, count: chunkSize, offset: offset)
            offset += received
            if received == 0 { return carry.isEmpty }
            let bytes = carry + UnsafeBufferPointer(start: buffer, count: received)
            guard let consumed = validPrefix(bytes) else { return false }
            carry = Array(bytes[consumed...])
        }
    }

    /// The length of the sequence a lead byte of 0x80 or more starts, and the range its second byte
    /// must fall in (which rules out overlong forms, surrogates and code points above U+10FFFF);
    /// nil for a byte that cannot start one.
    @inline(__always)
    static func sequence(startingWith lead: UInt8) -> (length: Int, second: ClosedRange<UInt8>)? {
        switch lead {
        case 0xC2...0xDF: return (2, 0x80...0xBF)
        case 0xE0: return (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: return (3, 0x80...0xBF)
        case 0xED: return (3, 0x80...0x9F)
        case 0xF0: return (4, 0x90...0xBF)
        case 0xF1...0xF3: return (4, 0x80...0xBF)
        case 0xF4: return (4, 0x80...0x8F)
        default: return nil
        }
    }

    /// The length of `bytes` that is whole valid sequences, leaving at most three bytes of a
    /// sequence the next chunk may complete; nil at an invalid one.
    static func validPrefix(_ bytes: [UInt8]) -> Int? {
        var index = 0
        let count = bytes.count
        while index < count {
            // Eight ASCII bytes at a time.
            if index + 8 <= count {
                let word = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: index, as: UInt64.self) }
                if word & 0x8080_8080_8080_8080 == 0 {
                    index += 8
                    continue
                }
            }
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            guard let (length, second) = sequence(startingWith: lead) else { return nil }
            if index + length > count {
                // A sequence the next chunk may complete, if what there is of it is right so far.
                for offset in 1..<(count - index) where !(offset == 1 ? second : 0x80...0xBF).contains(bytes[index + offset]) { return nil }
                return index
            }
            guard second.contains(bytes[index + 1]) else { return nil }
            for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { return nil }
            index += length
        }
        return index
    }
}
