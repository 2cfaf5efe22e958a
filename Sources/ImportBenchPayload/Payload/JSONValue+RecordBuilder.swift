import ImportBenchSchema

extension JSONValue {
    /// Writes the value into the builder as the next attribute, as a column of `type` stores it
    /// (`storeValue(as:)` without the owned copy); JSON null becomes NULL.
    package func write(to builder: RecordBuilder, as type: ColumnType) throws(PayloadError) {
        try tape.write(valueAt: index, to: builder, as: type)
    }
}

extension JSONTape {
    /// The string at `index` as the builder's next text value, unescaped straight into the builder
    /// when it has escapes (no scratch buffer, no second copy).
    @inline(__always)
    func writeText(at index: Int, to builder: RecordBuilder) throws(PayloadError) {
        let token = tokens[index]
        guard token.kind == .string else { throw mismatch(at: index, expected: .kind(.string)) }
        let content = UnsafeBufferPointer(rebasing: bytes[(Int(token.start) + 1)..<(Int(token.end) - 1)])
        if token.flags.contains(.hasEscapes) {
            builder.text(capacity: content.count) { Self.unescape(content, into: $0) }
        } else {
            builder.text(UnsafeRawBufferPointer(content))
        }
    }

    /// `JSONValue.write(to:as:)` by token index, for a walk that holds the tape (`JSONTape+Indexes`).
    @inline(__always)
    package func write(valueAt index: Int, to builder: RecordBuilder, as type: ColumnType) throws(PayloadError) {
        if isNull(at: index) {
            builder.null()
            return
        }
        switch type {
        case .text: try writeText(at: index, to: builder)
        case .integer: builder.integer(try int64(at: index))
        case .real: builder.real(try double(at: index))
        case .boolean: builder.integer(try bool(at: index) ? 1 : 0)
        }
    }
}

extension JSONObject {
    /// Writes the member `key` into the builder as the next attribute; missing and null both become NULL.
    package func write(_ key: String, to builder: RecordBuilder, as type: ColumnType) throws(PayloadError) {
        guard let value = try self[key] else {
            builder.null()
            return
        }
        try value.write(to: builder, as: type)
    }
}
