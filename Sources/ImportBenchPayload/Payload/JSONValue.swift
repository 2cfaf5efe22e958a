/// A value of a `JSONTape`: a position in it, cheap to copy. Accessors check the kind and throw a
/// `PayloadError` naming the value's byte offset and record path when it is not the one asked for
/// (JSON null included: absent-or-null is the business of `JSONObject`).
package struct JSONValue {
    package let tape: JSONTape
    package let index: Int

    package init(tape: JSONTape, index: Int) {
        self.tape = tape
        self.index = index
    }

    var token: JSONToken { tape.tokens[index] }

    package var kind: JSONKind { token.kind }
    package var isNull: Bool { token.kind == .null }
    /// Offset of the value's first byte in the file.
    package var byteOffset: Int { tape.baseOffset + Int(token.start) }
    /// Such as `channels[3].messages[17].user`; computed by walking the tape, so meant for error messages.
    package var recordPath: String { tape.recordPath(ofToken: index) }

    package func object() throws(PayloadError) -> JSONObject {
        _ = try tape.object(at: index)
        return JSONObject(value: self)
    }

    package func array() throws(PayloadError) -> JSONArray {
        _ = try tape.elements(ofArray: index)
        return JSONArray(value: self)
    }

    package func string() throws(PayloadError) -> String { try tape.string(at: index) }
    /// The string's unescaped UTF-8, lent to `body` without making a `String`.
    package func withString<R>(_ body: (UnsafeRawBufferPointer) -> R) throws(PayloadError) -> R {
        try tape.withStringBytes(at: index, body)
    }
    package func bool() throws(PayloadError) -> Bool { try tape.bool(at: index) }
    /// Integers beyond 64 bits are an error rather than a rounded value. A fraction or exponent is
    /// accepted when the value is an exact integer (`5.0`, `1e3`), as `JSONDecoder` does.
    package func int64() throws(PayloadError) -> Int64 { try tape.int64(at: index) }
    /// Integers beyond 64 bits become the nearest Double; numbers beyond Double's range are an error.
    package func double() throws(PayloadError) -> Double { try tape.double(at: index) }
}

/// Typed reads by token index, shared by `JSONValue` and `JSONObject`'s accessors; the latter use
/// them directly so that reading a field creates no value holding a reference to the tape.
extension JSONTape {
    package func string(at index: Int) throws(PayloadError) -> String {
        let token = tokens[index]
        guard token.kind == .string else { throw mismatch(at: index, expected: .kind(.string)) }
        return string(of: token)
    }

    /// The string's unescaped UTF-8 lent to `body`: the tape's own bytes when it has no escapes, a
    /// scratch copy otherwise.
    func withStringBytes<R>(at index: Int, _ body: (UnsafeRawBufferPointer) -> R) throws(PayloadError) -> R {
        let token = tokens[index]
        guard token.kind == .string else { throw mismatch(at: index, expected: .kind(.string)) }
        let content = UnsafeBufferPointer(rebasing: bytes[(Int(token.start) + 1)..<(Int(token.end) - 1)])
        guard token.flags.contains(.hasEscapes) else { return body(UnsafeRawBufferPointer(content)) }
        let scratch = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: content.count)
        defer { scratch.deallocate() }
        let count = Self.unescape(content, into: scratch)
        return body(UnsafeRawBufferPointer(start: scratch.baseAddress, count: count))
    }

    func bool(at index: Int) throws(PayloadError) -> Bool {
        let token = tokens[index]
        guard token.kind == .bool else { throw mismatch(at: index, expected: .kind(.boolean)) }
        return token.flags.contains(.isTrue)
    }

    package func int64(at index: Int) throws(PayloadError) -> Int64 {
        let token = tokens[index]
        guard token.kind == .number else { throw mismatch(at: index, expected: .kind(.integer)) }
        if !token.flags.contains(.hasFractionOrExponent) {
            guard let value = Self.parseInteger(span(of: token)) else {
                throw mismatch(at: index, expected: .kind(.integerWithin64Bits))
            }
            return value
        }
        guard let value = Int64(exactly: try double(at: index)) else {
            throw mismatch(at: index, expected: .kind(.integerWithin64Bits))
        }
        return value
    }

    func double(at index: Int) throws(PayloadError) -> Double {
        let token = tokens[index]
        guard token.kind == .number else { throw mismatch(at: index, expected: .kind(.number)) }
        if !token.flags.contains(.hasFractionOrExponent), let value = Self.parseInteger(span(of: token)) {
            // "-0" is an integer zero but a negative Double zero.
            return value == 0 && bytes[Int(token.start)] == UInt8(ascii: "-") ? -0.0 : Double(value)
        }
        if let value = DecimalNumber.fastDouble(span(of: token)) { return value }
        // The JSON number grammar is a subset of what Double's parser (strtod) accepts.
        guard let value = Double(String(decoding: span(of: token), as: UTF8.self)), value.isFinite else {
            throw mismatch(at: index, expected: .kind(.numberWithinDouble))
        }
        return value
    }

    /// Digits with an optional minus, as the parser validated them; nil on overflow.
    private static func parseInteger(_ digits: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard let first = digits.first else { return nil }
        let isNegative = first == UInt8(ascii: "-")
        var magnitude: UInt64 = 0
        for byte in digits.dropFirst(isNegative ? 1 : 0) {
            let (shifted, shiftOverflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, sumOverflow) = shifted.addingReportingOverflow(UInt64(byte &- UInt8(ascii: "0")))
            if shiftOverflow || sumOverflow { return nil }
            magnitude = sum
        }
        if isNegative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return Int64(truncatingIfNeeded: 0 &- magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }

    /// The value at `index` is not what `expected` says: located at its first byte, naming what it is.
    func mismatch(at index: Int, expected: PayloadExpectation) -> PayloadError {
        let token = tokens[index]
        let found: String
        switch token.kind {
        case .object: found = "an object"
        case .array: found = "an array"
        case .string: found = "the string \(snippet(of: token))"
        case .number: found = "the number \(snippet(of: token))"
        case .bool: found = token.flags.contains(.isTrue) ? "true" : "false"
        case .null: found = "null"
        }
        return PayloadError(
            file: file, byteOffset: baseOffset + Int(token.start), path: recordPath(ofToken: index),
            expected: expected, found: found)
    }
}

/// An object value's members, found by linear scan: payload objects are small, and a scan over
/// adjacent tokens beats building a dictionary nobody reuses.
package struct JSONObject: Sequence {
    package let value: JSONValue

    package var count: Int { Int(value.token.count) }
    package var isEmpty: Bool { count == 0 }

    /// The member's value, JSON null included; nil only when the key is absent. A key repeated with
    /// another value is an error (see `JSONTape.memberValueIndex`), so are all lookups below.
    package subscript(key: String) -> JSONValue? {
        get throws(PayloadError) {
            try value.tape.memberValueIndex(inObject: value.index, key: key).map { JSONValue(tape: value.tape, index: $0) }
        }
    }

    /// The member's value, or nil when the key is absent or its value is null: how payloads omit optionals.
    package func optional(_ key: String) throws(PayloadError) -> JSONValue? {
        try presentValueIndex(key).map { JSONValue(tape: value.tape, index: $0) }
    }

    /// The member's string; nil when absent or null, an error when of another kind.
    package func string(_ key: String) throws(PayloadError) -> String? {
        guard let index = try presentValueIndex(key) else { return nil }
        return try value.tape.string(at: index)
    }

    /// The member's string as unescaped UTF-8 lent to `body`; nil when absent or null, an error when of another kind.
    package func withString<R>(_ key: String, _ body: (UnsafeRawBufferPointer?) -> R) throws(PayloadError) -> R {
        guard let index = try presentValueIndex(key) else { return body(nil) }
        return try value.tape.withStringBytes(at: index) { body($0) }
    }

    /// The member's integer; nil when absent or null, an error when of another kind (see `JSONValue.int64()`).
    package func int64(_ key: String) throws(PayloadError) -> Int64? {
        guard let index = try presentValueIndex(key) else { return nil }
        return try value.tape.int64(at: index)
    }

    /// The member's number; nil when absent or null, an error when of another kind.
    package func double(_ key: String) throws(PayloadError) -> Double? {
        guard let index = try presentValueIndex(key) else { return nil }
        return try value.tape.double(at: index)
    }

    /// The member's boolean; nil when absent or null, an error when of another kind.
    package func bool(_ key: String) throws(PayloadError) -> Bool? {
        guard let index = try presentValueIndex(key) else { return nil }
        return try value.tape.bool(at: index)
    }

    private func presentValueIndex(_ key: String) throws(PayloadError) -> Int? {
        try value.tape.optionalMember(key, inObject: value.index)
    }

    /// The member's value; absent or null is an error. It is reported at the tape's base offset (the
    /// element's first byte) since an absent value has no position of its own; the path names it.
    package func required(_ key: String) throws(PayloadError) -> JSONValue {
        JSONValue(tape: value.tape, index: try value.tape.requiredMember(key, inObject: value.index))
    }

    package struct Member {
        package let key: String
        package let value: JSONValue
    }

    package func makeIterator() -> Iterator {
        Iterator(tape: value.tape, nextKey: value.index + 1, remaining: count)
    }

    package var underestimatedCount: Int { count }

    package struct Iterator: IteratorProtocol {
        let tape: JSONTape
        var nextKey: Int
        var remaining: Int

        package mutating func next() -> Member? {
            guard remaining > 0 else { return nil }
            remaining -= 1
            let valueIndex = nextKey + 1
            let member = Member(
                key: tape.string(of: tape.tokens[nextKey]), value: JSONValue(tape: tape, index: valueIndex))
            nextKey = Int(tape.tokens[valueIndex].next)
            return member
        }
    }
}

/// An array value's elements, in order.
package struct JSONArray: Sequence {
    package let value: JSONValue

    package var count: Int { Int(value.token.count) }
    package var isEmpty: Bool { count == 0 }

    package func makeIterator() -> Iterator {
        Iterator(tape: value.tape, nextElement: value.index + 1, remaining: count)
    }

    package var underestimatedCount: Int { count }

    package struct Iterator: IteratorProtocol {
        let tape: JSONTape
        var nextElement: Int
        var remaining: Int

        package mutating func next() -> JSONValue? {
            guard remaining > 0 else { return nil }
            remaining -= 1
            let element = JSONValue(tape: tape, index: nextElement)
            nextElement = Int(tape.tokens[nextElement].next)
            return element
        }
    }
}
