/// Member names a reader takes from every object of one kind (a user's `id`, `name`, ...), found
/// together in one pass over the object's members instead of one search per name.
final class JSONMemberSet: @unchecked Sendable {
    // @unchecked: the buffers are written in init only.
    let names: [String]
    /// The names' UTF-8, end to end; name `i` starts at `starts[i]` and is `lengths[i]` long.
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    private let starts: UnsafeMutableBufferPointer<Int>
    private let lengths: UnsafeMutableBufferPointer<Int>
    /// By key length (below 32): one bit per name of that length, so a member is compared only
    /// with names it could be. Longer names share the last entry.
    private let namesByLength: UnsafeMutableBufferPointer<UInt64>

    init(_ names: [String]) {
        precondition(names.count <= 64, "a member set holds at most 64 names")
        self.names = names
        let utf8 = names.map { Array($0.utf8) }
        bytes = .allocate(capacity: max(utf8.reduce(0) { $0 + $1.count }, 1))
        starts = .allocate(capacity: max(names.count, 1))
        lengths = .allocate(capacity: max(names.count, 1))
        namesByLength = .allocate(capacity: 33)
        namesByLength.initialize(repeating: 0)
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
    }

    deinit {
        bytes.deallocate()
        starts.deallocate()
        lengths.deallocate()
        namesByLength.deallocate()
    }

    var count: Int { names.count }

    /// The positions of the names as long as a key of `length` bytes, as bits.
    @inline(__always)
    fileprivate func candidates(length: Int) -> UInt64 {
        namesByLength[min(length, 32)]
    }

    /// Name `position`'s bytes if it is `length` long.
    @inline(__always)
    fileprivate func name(_ position: Int, length: Int) -> UnsafeBufferPointer<UInt8>? {
        guard lengths[position] == length, let base = bytes.baseAddress else { return nil }
        return UnsafeBufferPointer(start: base + starts[position], count: length)
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
    /// Fills `slots` with the members of `members` in one pass. An object that may repeat a key
    /// (the parser flags every one of more than 24 keys, such as a USGS feature's properties) is
    /// read by `findCheckingRepeats`.
    func find(_ members: JSONMemberSet, into slots: JSONMemberSlots) throws(PayloadError) {
        let tape = value.tape
        let found = slots.values
        let object = value.index
        if tape.tokens[object].flags.contains(.mayRepeatKeys) {
            try findCheckingRepeats(members, into: slots)
            return
        }
        found.update(repeating: -1)
        var missing: UInt64 = members.count == 64 ? ~0 : (1 << UInt64(members.count)) - 1
        var member = object + 1
        for _ in 0..<Int(tape.tokens[object].count) {
            let key = tape.tokens[member]
            let valueIndex = member + 1
            // Keys here have no escapes (`mayRepeatKeys` is set for any that has): bytes as written.
            let length = Int(key.end) - Int(key.start) - 2
            var candidates = members.candidates(length: length) & missing
            while candidates != 0 {
                let position = candidates.trailingZeroBitCount
                candidates &= candidates - 1
                guard let name = members.name(position, length: length) else { continue }
                if tape.bytesEqual(from: Int(key.start) + 1, name) {
                    found[position] = valueIndex
                    missing &= ~(1 << UInt64(position))
                    break
                }
            }
            if missing == 0 { return }
            member = Int(tape.tokens[valueIndex].next)
        }
    }

    /// `find` for a flagged object, kept out of its loop (folding the checks into it cost chat,
    /// whose objects are seldom flagged, 2-4 % of its decoding): the pass goes to the end and checks
    /// that a repeated name repeats its value; an object with an escaped key is searched name by
    /// name instead, matching keys as read.
    @inline(never)
    private func findCheckingRepeats(_ members: JSONMemberSet, into slots: JSONMemberSlots) throws(PayloadError) {
        let tape = value.tape
        let found = slots.values
        let object = value.index
        found.update(repeating: -1)
        var member = object + 1
        for _ in 0..<Int(tape.tokens[object].count) {
            let key = tape.tokens[member]
            let valueIndex = member + 1
            if key.flags.contains(.hasEscapes) {
                for (position, name) in members.names.enumerated() {
                    found[position] = try tape.memberValueIndex(inObject: object, key: name) ?? -1
                }
                return
            }
            let length = Int(key.end) - Int(key.start) - 2
            var candidates = members.candidates(length: length)
            while candidates != 0 {
                let position = candidates.trailingZeroBitCount
                candidates &= candidates - 1
                guard let name = members.name(position, length: length) else { continue }
                if tape.bytesEqual(from: Int(key.start) + 1, name) {
                    if found[position] < 0 {
                        found[position] = valueIndex
                    } else if !tape.sameValue(found[position], valueIndex) {
                        throw tape.duplicateKey(members.names[position], firstValue: found[position], secondKey: member)
                    }
                    break
                }
            }
            member = Int(tape.tokens[valueIndex].next)
        }
    }
}
