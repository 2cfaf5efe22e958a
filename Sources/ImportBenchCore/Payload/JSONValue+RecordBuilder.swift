extension JSONValue {
    /// Writes the value into the builder as the next attribute, as a column of `type` stores it
    /// (`databaseValue(as:)` without the owned copy); JSON null becomes NULL.
    package func write(to builder: RecordBuilder, as type: ColumnType) throws(PayloadError) {
        if isNull {
            builder.null()
            return
        }
        switch type {
        case .text: _ = try withString { builder.text($0) }
        case .integer: builder.integer(try int64())
        case .real: builder.real(try double())
        case .boolean: builder.integer(try bool() ? 1 : 0)
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
