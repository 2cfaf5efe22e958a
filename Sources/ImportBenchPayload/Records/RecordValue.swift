import ImportBenchStore

/// A value as a batch holds it. Text is lent (`LentText`): it points into the batch's bytes, so
/// strategies bind it without a copy; `storeValue` and `string` make owned copies.
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
    /// A string's UTF-8 bytes, unescaped, lent by the batch for the `write` it is given to.
    case text(LentText)

    /// An owned copy, valid after the batch is gone (text is copied into a `String`).
    public var storeValue: StoreValue {
        switch self {
        case .null, .absent: return .null
        case .integer(let value): return .integer(value)
        case .real(let value): return .real(value)
        case .text(let text): return .text(text.string)
        }
    }

    /// Text as an owned `String`, a number as its decimal text (a key written as a number); nil for
    /// null and for a member the payload left out (`absent`), which an update must not write.
    public var string: String? {
        switch self {
        case .text(let text): return text.string
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .null, .absent: return nil
        }
    }

    /// An integer, or a real that is one exactly; nil for anything else.
    public var int64: Int64? {
        switch self {
        case .integer(let value): return value
        case .real(let value): return Int64(exactly: value)
        default: return nil
        }
    }

    /// A number as a Double; nil for anything else.
    public var double: Double? {
        switch self {
        case .real(let value): return value
        case .integer(let value): return Double(value)
        default: return nil
        }
    }
}

/// A string's UTF-8 bytes as a batch lends them: valid only during the `write` that received the
/// batch. It gives the bytes in place only inside `withUnsafeBytes`, and otherwise only as an owned
/// copy (`string`), so no pointer into the batch can be kept by mistake.
@frozen
public struct LentText {
    /// The lent bytes; bench's own code reads them in place within the batch's life.
    @usableFromInline package let bytes: UnsafeRawBufferPointer

    @inlinable package init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// An owned copy, valid after the batch is gone.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    /// How many bytes the text has.
    public var count: Int { bytes.count }

    /// Calls `body` with the bytes in place; they must not be kept past its return.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(bytes)
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
        case .text(let text): bindBorrowedText(text.bytes, at: index)
        }
    }
}
