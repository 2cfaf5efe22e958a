import ImportBenchSchema
import ImportBenchStore

extension JSONValue {
    /// The value as a column of `type` stores it; JSON null becomes NULL. A wrong JSON type is a
    /// `PayloadError` naming the value's path and offset.
    package func storeValue(as type: ColumnType) throws(PayloadError) -> StoreValue {
        if isNull { return .null }
        switch type {
        case .text: return .text(try string())
        case .integer: return .integer(try int64())
        case .real: return .real(try double())
        case .boolean: return .integer(try bool() ? 1 : 0)
        }
    }
}

extension JSONObject {
    /// The member `key` as a column of `type` stores it; missing and null both become NULL.
    package func storeValue(_ key: String, as type: ColumnType) throws(PayloadError) -> StoreValue {
        guard let value = try self[key] else { return .null }
        return try value.storeValue(as: type)
    }
}
