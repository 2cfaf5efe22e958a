import ImportBenchStore

/// A value as a batch holds it. Text is lent: it points into the batch's bytes and is valid while
/// the batch lives, so strategies bind it without a copy; `storeValue` makes an owned copy.
public enum RecordValue {
    /// JSON null: the payload sets the value to NULL.
    case null
    /// A member the payload leaves out of this occurrence: an update keeps what the store holds (the
    /// rule of JSON Merge Patch, RFC 7396), a new row gets NULL. See `BatchOccurrence.isPartial`.
    case absent
    /// A number without fraction or exponent that fits 64 bits.
    case integer(Int64)
    /// Any other number.
    case real(Double)
    /// A string's UTF-8 bytes, unescaped, lent by the batch.
    case text(UnsafeRawBufferPointer)

    /// An owned copy, valid after the batch is gone (text is copied into a `String`).
    public var storeValue: StoreValue {
        switch self {
        case .null, .absent: return .null
        case .integer(let value): return .integer(value)
        case .real(let value): return .real(value)
        case .text(let bytes): return .text(String(decoding: bytes, as: UTF8.self))
        }
    }
}

extension StoreStatement {
    /// Binds a batch's value; text in place (`bindBorrowedText`), without a copy, so execute the
    /// statement before the batch is gone (inside `write`), or bind anew. An absent value binds
    /// NULL: what a new row gets; an update that must keep the stored value leaves its column out.
    @inlinable @inline(__always)
    public func bind(_ value: RecordValue, at index: Int32) {
        switch value {
        case .null, .absent: bindNull(at: index)
        case .integer(let integer): bind(integer, at: index)
        case .real(let real): bind(real, at: index)
        case .text(let bytes): bindBorrowedText(bytes, at: index)
        }
    }
}
