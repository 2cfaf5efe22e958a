/// Member names a reader takes from every object of one kind (a user's `id`, `name`, ...), found
/// together in one pass over the object's members instead of one search per name.
struct JSONMemberSet {
    let names: [String]
    fileprivate let utf8: [[UInt8]]

    init(_ names: [String]) {
        self.names = names
        utf8 = names.map { Array($0.utf8) }
    }

    var count: Int { names.count }
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
    /// is searched name by name instead, which checks that repeats agree.
    func find(_ members: JSONMemberSet, into slots: JSONMemberSlots) throws(PayloadError) {
        let tape = value.tape
        let found = slots.values
        let object = value.index
        if tape.tokens[object].flags.contains(.mayRepeatKeys) {
            for (position, name) in members.names.enumerated() {
                found[position] = try tape.memberValueIndex(inObject: object, key: name) ?? -1
            }
            return
        }
        found.update(repeating: -1)
        var remaining = members.count
        var member = object + 1
        for _ in 0..<Int(tape.tokens[object].count) {
            let key = tape.tokens[member]
            let valueIndex = member + 1
            // Keys here have no escapes (`mayRepeatKeys` is set for any that has): bytes as written.
            let length = Int(key.end) - Int(key.start) - 2
            for position in 0..<members.count where found[position] < 0 && members.utf8[position].count == length {
                let matches = members.utf8[position].withUnsafeBufferPointer { wanted in
                    tape.bytesEqual(from: Int(key.start) + 1, wanted)
                }
                if matches {
                    found[position] = valueIndex
                    remaining -= 1
                    break
                }
            }
            if remaining == 0 { return }
            member = Int(tape.tokens[valueIndex].next)
        }
    }
}
