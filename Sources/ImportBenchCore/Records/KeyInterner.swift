import Foundation
import ImportBenchStore

/// Dense integer IDs for natural keys, per entity, in order of first appearance. The batcher gives
/// every occurrence and reference its key's ID once, while decoding, so strategies find objects by
/// indexing arrays instead of hashing strings again and again. One interner lives for one import
/// (both of idcache's passes share it), so an ID means the same key in every batch.
public final class KeyInterner {
    private var tables: [KeyTable]

    public init(entityCount: Int) {
        tables = Array(repeating: KeyTable(), count: entityCount)
    }

    /// The key's ID, assigned now if the key is new.
    public func id(entity: Int, key: DatabaseValue) -> Int32 {
        tables[entity].id(of: key)
    }

    /// IDs handed out so far for the entity: every ID is below it.
    public func count(entity: Int) -> Int {
        tables[entity].keys.count
    }

    /// The key an ID stands for.
    public func key(entity: Int, id: Int32) -> DatabaseValue {
        tables[entity].keys[Int(id)]
    }
}

/// An open-addressing table from key to ID with a cheap multiplicative hash: Swift's `Hasher`
/// (SipHash, seeded per process) is built to resist hash flooding, and costs several times more.
/// Our keys come from the user's own payload, so speed wins here.
struct KeyTable {
    private(set) var keys: [DatabaseValue] = []
    private var hashes: [UInt64] = []
    /// ID + 1 per slot, 0 for an empty slot; the capacity is a power of two, at most half full.
    private var slots: [Int32] = Array(repeating: 0, count: 64)

    mutating func id(of key: DatabaseValue) -> Int32 {
        let hash = Self.hash(key)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let stored = slots[slot]
            if stored == 0 { break }
            let id = Int(stored - 1)
            if hashes[id] == hash && Self.identical(keys[id], key) { return Int32(id) }
            slot = (slot + 1) & mask
        }
        let id = Int32(keys.count)
        keys.append(key)
        hashes.append(hash)
        slots[slot] = id + 1
        if keys.count * 2 > slots.count { grow() }
        return id
    }

    private mutating func grow() {
        var grown = [Int32](repeating: 0, count: slots.count * 2)
        let mask = grown.count - 1
        for (id, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & mask
            while grown[slot] != 0 { slot = (slot + 1) & mask }
            grown[slot] = Int32(id + 1)
        }
        slots = grown
    }

    /// Byte for byte, as SQLite's BINARY collation compares keys (String's == would also join
    /// canonically equivalent spellings, which a UNIQUE index keeps apart).
    private static func identical(_ a: DatabaseValue, _ b: DatabaseValue) -> Bool {
        switch (a, b) {
        case (.text(let x), .text(let y)):
            guard x.utf8.count == y.utf8.count else { return false }
            // Native strings lend their bytes; comparing them whole beats walking two UTF-8 views.
            let same = x.utf8.withContiguousStorageIfAvailable { left in
                y.utf8.withContiguousStorageIfAvailable { right in
                    guard let a = left.baseAddress, let b = right.baseAddress else { return true }
                    return memcmp(a, b, left.count) == 0
                }
            }
            return (same ?? nil) ?? x.utf8.elementsEqual(y.utf8)
        case (.real(let x), .real(let y)): return x.bitPattern == y.bitPattern
        default: return a == b
        }
    }

    static func hash(_ key: DatabaseValue) -> UInt64 {
        switch key {
        case .null: return mix(0x9E37_79B9_7F4A_7C15)
        case .integer(let value): return mix(UInt64(bitPattern: value) ^ 0x1)
        case .real(let value): return mix(value.bitPattern ^ 0x2)
        case .text(let text):
            if let hash = text.utf8.withContiguousStorageIfAvailable(hash(bytes:)) { return hash }
            return Array(text.utf8).withUnsafeBufferPointer(hash(bytes:))
        }
    }

    /// Eight bytes at a time, each word folded in with a multiply and the length last.
    private static func hash(bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var state: UInt64 = 0x243F_6A88_85A3_08D3
        var index = 0
        let count = bytes.count
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= count {
                state = (state ^ raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0x9FB2_1C65_1E98_DF25
                state ^= state >> 29
                index += 8
            }
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while index < count {
                tail |= UInt64(base[index]) << shift
                shift += 8
                index += 1
            }
            state = (state ^ tail) &* 0x9FB2_1C65_1E98_DF25
        }
        return mix(state ^ UInt64(count))
    }

    /// The finaliser of splitmix64: every input bit reaches every output bit.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
