extension JSONValue {
    /// Writes the value into the builder as the next attribute, as a column of `type` stores it
    /// (`databaseValue(as:)` without the owned copy); JSON null becomes NULL.
    package func write(to builder: RecordBuilder, as type: ColumnType) throws(PayloadError) {
        try tape.write(valueAt: index, to: builder, as: type)
    }
}

extension JSONTape {
    /// `JSONValue.write(to:as:)` by token index, for a walk that holds the tape (`JSONTape+Indexes`).
    @inline(__always)
    func write(valueAt index: Int, to builder: RecordBuilder, as type: ColumnType) throws(PayloadError) {
        if isNull(at: index) {
            builder.null()
            return
        }
        switch type {
        case .text: _ = try withStringBytes(at: index) { builder.text($0) }
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
