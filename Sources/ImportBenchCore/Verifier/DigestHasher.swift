import ImportBenchStore

/// FNV-1a over a canonical encoding of typed values. A content fingerprint for equality checks,
/// not a security hash; typed, length-prefixed encoding keeps ("ab","c") apart from ("a","bc").
struct DigestHasher {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    @inline(__always)
    private mutating func mix(_ byte: UInt8) {
        value ^= UInt64(byte)
        value &*= 0x0000_0100_0000_01b3
    }

    private mutating func mix(_ word: UInt64) {
        var word = word
        for _ in 0..<8 {
            mix(UInt8(truncatingIfNeeded: word))
            word >>= 8
        }
    }

    mutating func combine(_ value: StoreValue) {
        switch value {
        case .null:
            mix(UInt8(0))
        case .integer(let integer):
            mix(UInt8(1))
            mix(UInt64(bitPattern: integer))
        case .real(let real):
            mix(UInt8(2))
            mix(real.bitPattern)
        case .text(let text):
            mix(UInt8(3))
            mix(UInt64(text.utf8.count))
            for byte in text.utf8 { mix(byte) }
        }
    }

    mutating func endRow() { mix(UInt8(0xff)) }

    var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
