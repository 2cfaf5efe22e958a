/// The occurrences of one batch in five flat buffers: fixed-size headers, 16-byte values,
/// references, the ends of many-to-many sets, and the text bytes every value and key points into.
/// Built by `RecordBuilder`, immutable afterwards, and freed with the last batch that holds it; the
/// views (`BatchOccurrence` and its collections) read it without reference counting.
package final class RecordStorage: @unchecked Sendable {
    // @unchecked: written only by the builder before it hands the storage over; read-only after.
    private let headerBuffer: PODArray<OccurrenceHeader>
    private let valueBuffer: PODArray<StoredValue>
    private let referenceBuffer: PODArray<StoredReference>
    private let setEndBuffer: PODArray<Int32>
    private let textBuffer: PODArray<UInt8>

    package var headers: UnsafeMutablePointer<OccurrenceHeader> { headerBuffer.base }
    package var values: UnsafeMutablePointer<StoredValue> { valueBuffer.base }
    package var references: UnsafeMutablePointer<StoredReference> { referenceBuffer.base }
    package var setEnds: UnsafeMutablePointer<Int32> { setEndBuffer.base }
    package var text: UnsafeMutablePointer<UInt8> { textBuffer.base }
    package var count: Int { headerBuffer.count }
    package var valueCount: Int { valueBuffer.count }
    package var referenceCount: Int { referenceBuffer.count }
    package var setEndCount: Int { setEndBuffer.count }
    package var textCount: Int { textBuffer.count }

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
    package static func value(_ stored: StoredValue, text: UnsafeMutablePointer<UInt8>) -> RecordValue {
        switch stored.tag {
        case .null: return .null
        case .absent: return .absent
        case .integer: return .integer(stored.bits)
        case .real: return .real(Double(bitPattern: UInt64(bitPattern: stored.bits)))
        case .text: return .text(UnsafeRawBufferPointer(start: text + Int(stored.bits), count: Int(stored.length)))
        }
    }
}

/// A value in 16 bytes: an integer, a double's bits, or where its text lies in the batch's bytes.
package struct StoredValue: BitwiseCopyable {
    /// `absent`: a member the payload left out (never a key).
    package enum Tag: UInt8, BitwiseCopyable { case null, integer, real, text, absent }

    /// The integer, the double's bit pattern, or the text's offset.
    package var bits: Int64
    package var length: UInt32
    package var tag: Tag

    package static let null = StoredValue(bits: 0, length: 0, tag: .null)
    package static let absent = StoredValue(bits: 0, length: 0, tag: .absent)
}

/// A to-one or set member: the target's key and key ID, and the target occurrence's ordinal when it
/// was embedded (-1 when given by key only). A NULL to-one relationship is `isPresent == false`;
/// one the payload left out is that too, with a key tagged `absent`.
package struct StoredReference: BitwiseCopyable {
    package var key: StoredValue
    package var embeddedOrdinal: Int
    package var keyID: Int32
    package var isPresent: Bool

    /// The relationship set to NULL.
    package static let null = StoredReference(key: .null, embeddedOrdinal: -1, keyID: -1, isPresent: false)
    /// The relationship left out: an update keeps the stored one.
    package static let absent = StoredReference(key: .absent, embeddedOrdinal: -1, keyID: -1, isPresent: false)

    package var isAbsent: Bool { key.tag == .absent }
}

/// Where one occurrence's parts lie: its key, then ranges of values (attributes), references (to-one,
/// then every set's members) and set ends.
package struct OccurrenceHeader: BitwiseCopyable {
    package var key: StoredValue
    package var ordinal: Int
    package var unit: Int
    package var keyID: Int32
    package var entity: Int32
    package var valueStart: Int32
    package var referenceStart: Int32
    package var setStart: Int32
    package var attributeCount: UInt16
    package var toOneCount: UInt16
    package var setCount: UInt16
    /// False for a copy that lists none of its object's children or set members (see `RecordBuilder.listsNoChildren`).
    package var listsChildren: Bool
    /// Whether the payload left out any of its attributes or to-one relationships.
    package var isPartial: Bool
}
