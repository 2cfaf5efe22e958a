/// A 64-bit hash of every byte of a payload, fed by the readers as they read it, so knowing the
/// whole payload's identity costs no second pass over it. Not cryptographic: it tells an edited or
/// other payload from the one a checkpoint was made from, where the first and last 64 KiB
/// (`PayloadFingerprint`) miss an edit in the middle. Eight bytes a step, a multiply each.
package final class PayloadHasher {
    private var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    private var length: UInt64 = 0
    /// Bytes not yet a whole word, low byte first.
    private var pending: UInt64 = 0
    private var pendingCount = 0

    package init() {}

    /// Mixes `bytes`, in order after everything before; the split into calls does not matter.
    package func update(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        let count = bytes.count
        length &+= UInt64(count)
        while pendingCount > 0, offset < count {
            pending |= UInt64(bytes[offset]) << (8 * UInt64(pendingCount))
            pendingCount += 1
            offset += 1
            if pendingCount == 8 {
                mix(pending)
                pending = 0
                pendingCount = 0
            }
        }
        while offset + 8 <= count {
            mix(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            offset += 8
        }
        while offset < count {
            pending |= UInt64(bytes[offset]) << (8 * UInt64(pendingCount))
            pendingCount += 1
            offset += 1
        }
    }

    /// Starts a new file of a feed: its name is hashed too, so renaming or reordering files counts.
    package func beginFile(named name: String) {
        var text = name + "\u{0}"
        text.withUTF8 { update(UnsafeRawBufferPointer($0)) }
    }

    /// Mixes in another hasher's result: a feed read file by file hashes each on its own, then
    /// folds them in file order.
    package func absorb(_ other: PayloadHasher) {
        var text = other.digest
        text.withUTF8 { update(UnsafeRawBufferPointer($0)) }
    }

    @inline(__always)
    private func mix(_ word: UInt64) {
        state = Self.mixed(state, word)
    }

    @inline(__always)
    private static func mixed(_ state: UInt64, _ word: UInt64) -> UInt64 {
        (state ^ (word &* 0x87C3_7B91_1142_53D5)).rotated(by: 31) &* 0x4CF5_AD43_2745_937F
    }

    /// The hash of everything so far, with the byte count: `bytes/hex`.
    package var digest: String {
        var final = pendingCount > 0 ? Self.mixed(state, pending) : state
        final ^= length
        final ^= final >> 33
        final = final &* 0xFF51_AFD7_ED55_8CCD
        final ^= final >> 33
        return "\(length)/\(String(final, radix: 16))"
    }
}

extension UInt64 {
    @inline(__always)
    fileprivate func rotated(by count: UInt64) -> UInt64 { (self << count) | (self >> (64 - count)) }
}
