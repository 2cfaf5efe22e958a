/// Reads by token index, for a reader's hot walk: it holds the tape once (a borrowed parameter
/// costs no reference counting) and passes indexes, where each `JSONValue`, `JSONObject` or
/// `JSONArray` it made would retain the tape and release it again (a tenth of decoding chat).
/// Lookups, errors and their locations are those of the value types, which stay for everything else.
extension JSONTape {
    /// `index`, checked to be an object: `JSONValue.object()`.
    @inline(__always)
    package func object(at index: Int) throws(PayloadError) -> Int {
        guard tokens[index].kind == .object else { throw mismatch(at: index, expected: .kind(.object)) }
        return index
    }

    /// The elements of the array at `index`, checked to be one: `JSONValue.array()`.
    @inline(__always)
    func elements(ofArray index: Int) throws(PayloadError) -> JSONElementIndexes {
        guard tokens[index].kind == .array else { throw mismatch(at: index, expected: .kind(.array)) }
        return JSONElementIndexes(tokens: tokens, first: index + 1, count: Int(tokens[index].count))
    }

    /// Whether the value at `index` is JSON null.
    @inline(__always)
    package func isNull(at index: Int) -> Bool { tokens[index].kind == .null }

    /// The member's value, JSON null included; nil when absent: `JSONObject[key]`.
    @inline(__always)
    package func member(_ key: String, inObject object: Int) throws(PayloadError) -> Int? {
        try memberValueIndex(inObject: object, key: key)
    }

    /// The member's value, nil when absent or null: `JSONObject.optional(_:)`.
    @inline(__always)
    func optionalMember(_ key: String, inObject object: Int) throws(PayloadError) -> Int? {
        guard let index = try memberValueIndex(inObject: object, key: key), !isNull(at: index) else { return nil }
        return index
    }

    /// The member's value; absent or null is an error, located as `JSONObject.required(_:)` locates it.
    func requiredMember(_ key: String, inObject object: Int) throws(PayloadError) -> Int {
        guard let index = try memberValueIndex(inObject: object, key: key) else { throw missingMember(key, inObject: object, found: "no such key") }
        guard !isNull(at: index) else { throw missingMember(key, inObject: object, found: "null") }
        return index
    }

    /// At the tape's base offset (the element's first byte), since an absent value has no position
    /// of its own; the path names it.
    func missingMember(_ key: String, inObject object: Int, found: String) -> PayloadError {
        PayloadError(
            file: file, byteOffset: baseOffset, path: JSONTape.appending(key: key, to: recordPath(ofToken: object)),
            expected: .valueForKey(key), found: found)
    }
}

/// The token indexes of an array's elements, in order, without a reference to the tape: valid
/// while the tape that lent `tokens` lives.
struct JSONElementIndexes: Sequence, IteratorProtocol {
    let tokens: UnsafeBufferPointer<JSONToken>
    private var nextElement: Int
    private var remaining: Int

    init(tokens: UnsafeBufferPointer<JSONToken>, first: Int, count: Int) {
        self.tokens = tokens
        nextElement = first
        remaining = count
    }

    var underestimatedCount: Int { remaining }

    @inline(__always)
    mutating func next() -> Int? {
        guard remaining > 0 else { return nil }
        remaining -= 1
        let element = nextElement
        nextElement = Int(tokens[element].next)
        return element
    }
}
