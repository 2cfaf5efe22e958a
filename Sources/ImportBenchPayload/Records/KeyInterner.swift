import CHotPath
import Foundation
import ImportBenchStore

/// Dense integer IDs for natural keys, per entity. The record builder gives every occurrence and
/// reference its key's ID once, while decoding, so strategies find objects by
/// indexing arrays instead of hashing strings again and again. One interner lives for one import
/// (both of idcache's passes share it), so an ID means the same key in every batch.
package final class KeyInterner {
    /// One table per entity, behind a pointer: a class's stored `var` would cost a runtime
    /// exclusivity check on every lookup.
    private let tables: UnsafeMutablePointer<KeyTable>
    private let entityCount: Int
    /// Held, once the interner is shared (`share()`), around every change the decoding thread makes
    /// and every lookup of another thread (`locked`); untouched otherwise.
    private let access = NSLock()
    /// Set by `share()` before a second thread uses the interner. Unchecked: read on every new key,
    /// written once before the decoding thread starts.
    @exclusivity(unchecked) private var isShared = false

    package init(entityCount: Int) {
        self.entityCount = entityCount
        tables = .allocate(capacity: max(entityCount, 1))
        // One table each: a table owns its buffers, so copies of one would share them.
        for entity in 0..<entityCount { (tables + entity).initialize(to: KeyTable()) }
    }

    deinit {
        for entity in 0..<entityCount { tables[entity].free() }
        tables.deinitialize(count: entityCount)
        tables.deallocate()
    }

    /// From now on one thread (the decoding thread, `--decode-ahead`) changes the interner and
    /// others may look keys up with `existingID` inside `locked`. The changing thread takes the lock
    /// only to add or forget keys, so its own lookups of keys already met run as before; no lookup of
    /// another thread ever meets a table half-changed.
    package func share() {
        isShared = true
    }

    /// Runs `body` with the interner to itself: for a thread that looks keys up (with `existingID`,
    /// never `id`) while another decodes ahead.
    package func locked<Result>(_ body: () throws -> Result) rethrows -> Result {
        access.lock()
        defer { access.unlock() }
        return try body()
    }

    /// The key's ID, assigned now if the key is new.
    package func id(entity: Int, key: StoreValue) -> Int32 {
        switch key {
        case .null: return id(entity: entity, tag: .null, bits: 0)
        case .integer(let value): return id(entity: entity, tag: .integer, bits: value)
        case .real(let value): return id(entity: entity, tag: .real, bits: Int64(bitPattern: value.bitPattern))
        case .text(let text): return text.withUTF8Bytes { id(entity: entity, text: $0) }
        }
    }

    /// The ID of a text key, given its UTF-8 bytes.
    @inline(__always)
    func id(entity: Int, text: UnsafeRawBufferPointer) -> Int32 {
        id(entity: entity, tag: .text, bytes: text, hash: KeyTable.hash(text, tag: .text))
    }

    /// The one way keys are added: shared, a key already met is found without the lock, and a new
    /// one added under it.
    @inline(__always)
    private func id(entity: Int, tag: StoredValue.Tag, bytes: UnsafeRawBufferPointer, hash: UInt64) -> Int32 {
        guard isShared else { return tables[entity].id(tag: tag, bytes: bytes, hash: hash) }
        let met = tables[entity].existingID(tag: tag, bytes: bytes, hash: hash)
        if met >= 0 { return met }
        return locked { tables[entity].id(tag: tag, bytes: bytes, hash: hash) }
    }

    /// Starts loading the slot where a key of this hash (`KeyTable.hash`) lands, for an
    /// `id(entity:text:hash:)` a little later: a new key's slot is a cache miss in a large table.
    @inline(__always)
    func prefetch(entity: Int, hash: UInt64) {
        tables[entity].prefetch(hash)
    }

    @inline(__always)
    func id(entity: Int, text: UnsafeRawBufferPointer, hash: UInt64) -> Int32 {
        id(entity: entity, tag: .text, bytes: text, hash: hash)
    }

    /// The ID of a key that is not text: its 8 bytes (integer or double bits) stand for it.
    func id(entity: Int, tag: StoredValue.Tag, bits: Int64) -> Int32 {
        withUnsafeBytes(of: bits.littleEndian) { id(entity: entity, tag: tag, bytes: $0, hash: KeyTable.hash($0, tag: tag)) }
    }

    /// The key's ID if it has one, or nil; assigns nothing.
    package func existingID(entity: Int, key: StoreValue) -> Int32? {
        let id: Int32
        switch key {
        case .null: id = existingID(entity: entity, tag: .null, bits: 0)
        case .integer(let value): id = existingID(entity: entity, tag: .integer, bits: value)
        case .real(let value): id = existingID(entity: entity, tag: .real, bits: Int64(bitPattern: value.bitPattern))
        case .text(let text): id = text.withUTF8Bytes { existingID(entity: entity, tag: .text, bytes: $0) }
        }
        return id >= 0 ? id : nil
    }

    /// -1 for a key never met.
    func existingID(entity: Int, tag: StoredValue.Tag, bytes: UnsafeRawBufferPointer) -> Int32 {
        tables[entity].existingID(tag: tag, bytes: bytes, hash: KeyTable.hash(bytes, tag: tag))
    }

    func existingID(entity: Int, tag: StoredValue.Tag, bits: Int64) -> Int32 {
        withUnsafeBytes(of: bits.littleEndian) { existingID(entity: entity, tag: tag, bytes: $0) }
    }

    /// Remembers how many keys each entity has, for `forgetSinceMark()`.
    func mark() {
        guard isShared else { return setMarks() }
        locked { setMarks() }
    }

    private func setMarks() {
        for entity in 0..<entityCount { tables[entity].mark = tables[entity].count }
    }

    /// Forgets every key first met since `mark()`, so the next new key gets the ID it would have
    /// had if they had never been met: a record skipped half-way leaves no gap in the IDs.
    func forgetSinceMark() {
        guard isShared else { return truncateToMarks() }
        locked { truncateToMarks() }
    }

    private func truncateToMarks() {
        for entity in 0..<entityCount { tables[entity].truncate(to: tables[entity].mark) }
    }

    /// IDs handed out so far for the entity: every ID is below it.
    package func count(entity: Int) -> Int {
        tables[entity].count
    }

    /// The key an ID stands for.
    package func key(entity: Int, id: Int32) -> StoreValue {
        tables[entity].key(Int(id))
    }
}

/// An open-addressing table from key bytes to ID with a cheap multiplicative hash: Swift's `Hasher`
/// (SipHash, seeded per process) is built to resist hash flooding, and costs several times more.
/// Our keys come from the user's own payload, so speed wins here. The keys' bytes lie end to end
/// in one buffer, and each slot holds part of its key's hash, so a probe rarely touches a key.
struct KeyTable {
    /// Every key's bytes, end to end; key `id` is `bytes[ends[id - 1]..<ends[id]]`.
    private var bytes = PODArray<UInt8>(capacity: 4096)
    private var ends = PODArray<Int>(capacity: 256)
    private var tags = PODArray<StoredValue.Tag>(capacity: 256)
    /// Every key's hash, so growing the table reads no key.
    private var hashes = PODArray<UInt64>(capacity: 256)
    /// Per slot: the hash's high 32 bits, then ID + 1 in the low 32; 0 for an empty slot. The
    /// capacity is a power of two, at most half full.
    private var slots: UnsafeMutablePointer<UInt64>
    private var slotCount = 64

    init() {
        slots = .allocate(capacity: slotCount)
        slots.initialize(repeating: 0, count: slotCount)
    }

    var count: Int { ends.count }
    /// A count to return to with `truncate(to:)`, set by the interner's `mark()`.
    var mark = 0

    func free() {
        bytes.free()
        ends.free()
        tags.free()
        hashes.free()
        slots.deallocate()
    }

    @inline(__always)
    func prefetch(_ hash: UInt64) {
        importbench_prefetch(slots + (Int(truncatingIfNeeded: hash) & (slotCount - 1)))
    }

    /// `hash` is `KeyTable.hash(key, tag: tag)`.
    mutating func id(tag: StoredValue.Tag, bytes key: UnsafeRawBufferPointer, hash: UInt64) -> Int32 {
        let check = hash >> 32
        let mask = slotCount - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let stored = slots[slot]
            if stored == 0 { break }
            if stored >> 32 == check {
                let id = Int(stored & 0xFFFF_FFFF) - 1
                if tags[id] == tag, matches(id, key) { return Int32(id) }
            }
            slot = (slot + 1) & mask
        }
        let id = ends.count
        if key.count > 0, let source = key.baseAddress {
            bytes.extend(by: key.count).initialize(from: source.assumingMemoryBound(to: UInt8.self), count: key.count)
        }
        ends.append(bytes.count)
        tags.append(tag)
        hashes.append(hash)
        slots[slot] = check << 32 | UInt64(id + 1)
        if ends.count * 2 > slotCount { grow() }
        return Int32(id)
    }

    /// The key's ID, or -1 for a key never met; assigns nothing. The same probe as `id`, which
    /// keeps its own copy: shared through a helper, decoding chat cost 0.3 million instructions more
    /// (callgrind).
    func existingID(tag: StoredValue.Tag, bytes key: UnsafeRawBufferPointer, hash: UInt64) -> Int32 {
        let check = hash >> 32
        let mask = slotCount - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let stored = slots[slot]
            if stored == 0 { return -1 }
            if stored >> 32 == check {
                let id = Int(stored & 0xFFFF_FFFF) - 1
                if tags[id] == tag, matches(id, key) { return Int32(id) }
            }
            slot = (slot + 1) & mask
        }
    }

    /// Forgets the keys from ID `newCount` on. Newest first: a key's probe sequence only ever
    /// passes slots of keys older than it (insertion, and re-insertion on growth, go in ID order),
    /// so emptying the newest slot never cuts an older key off.
    mutating func truncate(to newCount: Int) {
        guard newCount < ends.count else { return }
        let mask = slotCount - 1
        for id in stride(from: ends.count - 1, through: newCount, by: -1) {
            var slot = Int(truncatingIfNeeded: hashes[id]) & mask
            while slots[slot] & 0xFFFF_FFFF != UInt64(id + 1) { slot = (slot + 1) & mask }
            slots[slot] = 0
        }
        bytes.truncate(to: newCount == 0 ? 0 : ends[newCount - 1])
        ends.truncate(to: newCount)
        tags.truncate(to: newCount)
        hashes.truncate(to: newCount)
    }

    /// Byte for byte, as SQLite's BINARY collation compares keys (String's == would also join
    /// canonically equivalent spellings, which a UNIQUE index keeps apart).
    @inline(__always)
    private func matches(_ id: Int, _ key: UnsafeRawBufferPointer) -> Bool {
        let start = id == 0 ? 0 : ends[id - 1]
        let length = ends[id] - start
        guard length == key.count else { return false }
        guard length > 0, let wanted = key.baseAddress else { return true }
        return memcmp(bytes.base + start, wanted, length) == 0
    }

    private func span(_ id: Int) -> UnsafeRawBufferPointer {
        let start = id == 0 ? 0 : ends[id - 1]
        return UnsafeRawBufferPointer(start: bytes.base + start, count: ends[id] - start)
    }

    func key(_ id: Int) -> StoreValue {
        let span = span(id)
        switch tags[id] {
        case .null, .absent: return .null
        case .text: return .text(String(decoding: span, as: UTF8.self))
        case .integer: return .integer(Int64(littleEndian: span.loadUnaligned(as: Int64.self)))
        case .real: return .real(Double(bitPattern: UInt64(littleEndian: span.loadUnaligned(as: UInt64.self))))
        }
    }

    private mutating func grow() {
        let grownCount = slotCount * 2
        let grown = UnsafeMutablePointer<UInt64>.allocate(capacity: grownCount)
        grown.initialize(repeating: 0, count: grownCount)
        let mask = grownCount - 1
        for id in 0..<ends.count {
            let hash = hashes[id]
            var slot = Int(truncatingIfNeeded: hash) & mask
            while grown[slot] != 0 { slot = (slot + 1) & mask }
            grown[slot] = (hash >> 32) << 32 | UInt64(id + 1)
        }
        slots.deallocate()
        slots = grown
        slotCount = grownCount
    }

    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer, tag: StoredValue.Tag) -> UInt64 {
        hash(bytes) ^ UInt64(tag.rawValue)
    }

    /// Eight bytes at a time, each word folded in with a multiply and the length last.
    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var state: UInt64 = 0x243F_6A88_85A3_08D3
        var index = 0
        let count = bytes.count
        if let base = bytes.baseAddress {
            while index + 8 <= count {
                state = (state ^ base.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0x9FB2_1C65_1E98_DF25
                state ^= state >> 29
                index += 8
            }
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while index < count {
                tail |= UInt64(base.load(fromByteOffset: index, as: UInt8.self)) << shift
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
