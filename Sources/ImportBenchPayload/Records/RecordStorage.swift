/// The occurrences of one batch in five flat buffers: fixed-size headers, 16-byte values,
/// references, the ends of many-to-many sets, and the text bytes every value and key points into.
/// Built by `RecordBuilder`, immutable afterwards, and freed with the last batch that holds it; the
/// views (`BatchOccurrence` and its collections) read it without reference counting.
@usableFromInline package final class RecordStorage: @unchecked Sendable {
    // @unchecked: written only by the builder before it hands the storage over; read-only after.
    @usableFromInline let headerBuffer: PODArray<OccurrenceHeader>
    @usableFromInline let valueBuffer: PODArray<StoredValue>
    @usableFromInline let referenceBuffer: PODArray<StoredReference>
    @usableFromInline let setEndBuffer: PODArray<Int32>
    @usableFromInline let textBuffer: PODArray<UInt8>

    @inlinable package var headers: UnsafeMutablePointer<OccurrenceHeader> { headerBuffer.base }
    @inlinable package var values: UnsafeMutablePointer<StoredValue> { valueBuffer.base }
    @inlinable package var references: UnsafeMutablePointer<StoredReference> { referenceBuffer.base }
    @inlinable package var setEnds: UnsafeMutablePointer<Int32> { setEndBuffer.base }
    @inlinable package var text: UnsafeMutablePointer<UInt8> { textBuffer.base }
    @inlinable package var count: Int { headerBuffer.count }
    @inlinable package var valueCount: Int { valueBuffer.count }
    @inlinable package var referenceCount: Int { referenceBuffer.count }
    @inlinable package var setEndCount: Int { setEndBuffer.count }
    @inlinable package var textCount: Int { textBuffer.count }

    /// Takes the buffers over: they are freed with the storage.
    init(
        headers: PODArray<OccurrenceHeader>, values: PODArray<StoredValue>, references: PODArray<StoredReference>,
        setEnds: PODArray<Int32>, text: PODArray<UInt8>
    ) {
        headerBuffer = headers
        valueBuffer = values
        referenceBuffer = references
        setEndBuffer = setEnds
        textBuffer = text
    }

    deinit {
        headerBuffer.free()
        valueBuffer.free()
        referenceBuffer.free()
        setEndBuffer.free()
        textBuffer.free()
    }

    /// The bytes its buffers hold, as allocated: what keeping the batch costs in memory.
    package var allocatedBytes: Int {
        headerBuffer.capacity * MemoryLayout<OccurrenceHeader>.stride + valueBuffer.capacity * MemoryLayout<StoredValue>.stride
            + referenceBuffer.capacity * MemoryLayout<StoredReference>.stride + setEndBuffer.capacity * MemoryLayout<Int32>.stride
            + textBuffer.capacity
    }

    /// Static, and handed the text's base: called as a method through a view's `unowned(unsafe)`
    /// storage, Swift retained and released the storage around every value read.
    @inline(__always)
    @inlinable package static func value(_ stored: StoredValue, text: UnsafeMutablePointer<UInt8>) -> RecordValue {
        switch stored.tag {
        case .null: return .null
        case .absent: return .absent
        case .integer: return .integer(stored.bits)
        case .real: return .real(Double(bitPattern: UInt64(bitPattern: stored.bits)))
        case .text: return .text(LentText(UnsafeRawBufferPointer(start: text + Int(stored.bits), count: Int(stored.length))))
        }
    }
}

/// A value in 16 bytes: an integer, a double's bits, or where its text lies in the batch's bytes.
@usableFromInline package struct StoredValue: BitwiseCopyable, Sendable {
    /// `absent`: a member the payload left out (never a key).
    @usableFromInline package enum Tag: UInt8, BitwiseCopyable, Sendable { case null, integer, real, text, absent }

    /// The integer, the double's bit pattern, or the text's offset.
    @usableFromInline package var bits: Int64
    @usableFromInline package var length: UInt32
    @usableFromInline package var tag: Tag

    @usableFromInline package static let null = StoredValue(bits: 0, length: 0, tag: .null)
    @usableFromInline package static let absent = StoredValue(bits: 0, length: 0, tag: .absent)
}

/// A to-one or set member: the target's key and key ID, and the target occurrence's ordinal when it
/// was embedded (-1 when given by key only). A NULL to-one relationship is `isPresent == false`;
/// one the payload left out is that too, with a key tagged `absent`.
@usableFromInline package struct StoredReference: BitwiseCopyable, Sendable {
    @usableFromInline package var key: StoredValue
    @usableFromInline package var embeddedOrdinal: Int
    @usableFromInline package var keyID: Int32
    @usableFromInline package var isPresent: Bool

    /// The relationship set to NULL.
    @usableFromInline package static let null = StoredReference(key: .null, embeddedOrdinal: -1, keyID: -1, isPresent: false)
    /// The relationship left out: an update keeps the stored one.
    @usableFromInline package static let absent = StoredReference(key: .absent, embeddedOrdinal: -1, keyID: -1, isPresent: false)

    @inlinable package var isAbsent: Bool { key.tag == .absent }
}

/// Where one occurrence's parts lie: its key, then ranges of values (attributes), references (to-one,
/// then every set's members) and set ends.
@usableFromInline package struct OccurrenceHeader: BitwiseCopyable {
    @usableFromInline package var key: StoredValue
    @usableFromInline package var ordinal: Int
    @usableFromInline package var unit: Int
    @usableFromInline package var keyID: Int32
    @usableFromInline package var entity: Int32
    @usableFromInline package var valueStart: Int32
    @usableFromInline package var referenceStart: Int32
    @usableFromInline package var setStart: Int32
    @usableFromInline package var attributeCount: UInt16
    @usableFromInline package var toOneCount: UInt16
    @usableFromInline package var setCount: UInt16
    /// False for a copy that lists none of its object's children or set members (see `RecordBuilder.listsNoChildren`).
    @usableFromInline package var listsChildren: Bool
    /// Whether the payload left out any of its attributes or to-one relationships.
    @usableFromInline package var isPartial: Bool
}
