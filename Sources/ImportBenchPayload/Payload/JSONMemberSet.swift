/// Member names a reader takes from every object of one kind (a user's `id`, `name`, ...), found
/// together in one pass over the object's members instead of one search per name.
final class JSONMemberSet: @unchecked Sendable {
    // @unchecked: the buffers are written in init only.
    let names: [String]
    /// The names as plain pointers into buffers this set owns, valid while it lives: a walk that
    /// keeps it in a value looks names up with no reference counting (a class reference read from a
    /// stored array or a static costs a retain and a release per object searched).
    let table: JSONMemberTable

    init(_ names: [String]) {
        precondition(names.count <= 64, "a member set holds at most 64 names")
        self.names = names
        let utf8 = names.map { Array($0.utf8) }
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: max(utf8.reduce(0) { $0 + $1.count }, 1))
        let starts = UnsafeMutablePointer<Int>.allocate(capacity: max(names.count, 1))
        let lengths = UnsafeMutablePointer<Int>.allocate(capacity: max(names.count, 1))
        let namesByLength = UnsafeMutablePointer<UInt64>.allocate(capacity: 33)
        namesByLength.initialize(repeating: 0, count: 33)
        var offset = 0
        for (position, name) in utf8.enumerated() {
            starts[position] = offset
            lengths[position] = name.count
            for byte in name {
                bytes[offset] = byte
                offset += 1
            }
            namesByLength[min(name.count, 32)] |= 1 << UInt64(position)
        }
        table = JSONMemberTable(bytes: bytes, starts: starts, lengths: lengths, namesByLength: namesByLength, count: names.count)
    }

    deinit {
        table.bytes.deallocate()
        table.starts.deallocate()
        table.lengths.deallocate()
        table.namesByLength.deallocate()
    }

    var count: Int { names.count }
}

/// A `JSONMemberSet`'s names as pointers into its buffers: name `i` starts at `starts[i]` and is
/// `lengths[i]` long; `namesByLength[n]` (n below 32; longer names share the last entry) has one bit
/// per name of that length, so a member is compared only with names it could be.
struct JSONMemberTable: BitwiseCopyable {
    fileprivate let bytes: UnsafeMutablePointer<UInt8>
    fileprivate let starts: UnsafeMutablePointer<Int>
    fileprivate let lengths: UnsafeMutablePointer<Int>
    fileprivate let namesByLength: UnsafeMutablePointer<UInt64>
    let count: Int

    /// The positions of the names as long as a key of `length` bytes, as bits.
    @inline(__always)
    fileprivate func candidates(length: Int) -> UInt64 {
        namesByLength[min(length, 32)]
    }

    /// Name `position`'s bytes if it is `length` long.
    @inline(__always)
    fileprivate func name(_ position: Int, length: Int) -> UnsafeBufferPointer<UInt8>? {
        guard lengths[position] == length else { return nil }
        return UnsafeBufferPointer(start: bytes + starts[position], count: length)
    }

    /// Name `position` as a string: for the rare paths (an escaped key, an error).
    fileprivate func name(_ position: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: bytes + starts[position], count: lengths[position]), as: UTF8.self)
    }
}

/// Where an object's members of a `JSONMemberSet` are: the token index of each one's value, -1
/// when absent. Reused from object to object.
final class JSONMemberSlots {
    let values: UnsafeMutableBufferPointer<Int>

    init(for members: JSONMemberSet) {
        values = .allocate(capacity: members.count)
    }

    deinit {
        values.deallocate()
    }
}

extension JSONObject {
    /// Fills `slots` with the members of `members` in one pass (see `find(_:into:)` below).
    @inline(__always)
    func find(_ members: JSONMemberSet, into slots: JSONMemberSlots) throws(PayloadError) {
        try find(members.table, into: slots.values)
    }

    /// Fills `found` (one slot per name) with the token index of each name's value, -1 when absent,
    /// in one pass. An object that may repeat a key (the parser flags one that does, one with an
    /// escaped key, and every one of more than 64 keys) is read by `findCheckingRepeats`.
    func find(_ members: JSONMemberTable, into found: UnsafeMutableBufferPointer<Int>) throws(PayloadError) {
        try value.tape.find(members, inObject: value.index, into: found)
    }
}

extension JSONTape {
    /// `JSONObject.find(_:into:)` for the object at token `object`: a walk that holds the tape and a
    /// token index calls it without making a `JSONObject`, whose tape reference costs a retain and a
    /// release per object (11 % of decoding the orders mapping was reference counting).
    func find(_ members: JSONMemberTable, inObject object: Int, into found: UnsafeMutableBufferPointer<Int>) throws(PayloadError) {
        if tokens[object].flags.contains(.mayRepeatKeys) {
            try findCheckingRepeats(members, inObject: object, into: found)
            return
        }
        found.update(repeating: -1)
        var missing: UInt64 = members.count == 64 ? ~0 : (1 << UInt64(members.count)) - 1
        var member = object + 1
        for _ in 0..<Int(tokens[object].count) {
            let key = tokens[member]
            let valueIndex = member + 1
            // Keys here have no escapes (`mayRepeatKeys` is set for any that has): bytes as written.
            let length = Int(key.end) - Int(key.start) - 2
            var candidates = members.candidates(length: length) & missing
            while candidates != 0 {
                let position = candidates.trailingZeroBitCount
                candidates &= candidates - 1
                guard let name = members.name(position, length: length) else { continue }
                if bytesEqual(from: Int(key.start) + 1, name) {
                    found[position] = valueIndex
                    missing &= ~(1 << UInt64(position))
                    break
                }
            }
            if missing == 0 { return }
            member = Int(tokens[valueIndex].next)
        }
    }

    /// `find` for a flagged object, kept out of its loop (folding the checks into it cost chat,
    /// whose objects are seldom flagged, 2-4 % of its decoding): the pass goes to the end and checks
    /// that a repeated name repeats its value; an object with an escaped key is searched name by
    /// name instead, matching keys as read.
    @inline(never)
    private func findCheckingRepeats(
        _ members: JSONMemberTable, inObject object: Int, into found: UnsafeMutableBufferPointer<Int>
    ) throws(PayloadError) {
        found.update(repeating: -1)
        var member = object + 1
        for _ in 0..<Int(tokens[object].count) {
            let key = tokens[member]
            let valueIndex = member + 1
            if key.flags.contains(.hasEscapes) {
                for position in 0..<members.count {
                    found[position] = try memberValueIndex(inObject: object, key: members.name(position)) ?? -1
                }
                return
            }
            let length = Int(key.end) - Int(key.start) - 2
            var candidates = members.candidates(length: length)
            while candidates != 0 {
                let position = candidates.trailingZeroBitCount
                candidates &= candidates - 1
                guard let name = members.name(position, length: length) else { continue }
                if bytesEqual(from: Int(key.start) + 1, name) {
                    if found[position] < 0 {
                        found[position] = valueIndex
                    } else if !sameValue(found[position], valueIndex) {
                        throw duplicateKey(members.name(position), firstValue: found[position], secondKey: member)
                    }
                    break
                }
            }
            member = Int(tokens[valueIndex].next)
        }
    }
}
