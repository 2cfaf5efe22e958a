import CHotPath
import ImportBenchSchema
import ImportBenchStore

/// One occurrence as it lies in a batch's storage: what strategies read. A view, valid while its
/// batch lives; `materialized` copies it out as a `RecordOccurrence`.
public struct BatchOccurrence {
    @usableFromInline unowned(unsafe) package let storage: RecordStorage
    @usableFromInline package let position: Int

    @inlinable package init(storage: RecordStorage, position: Int) {
        self.storage = storage
        self.position = position
    }

    @inline(__always)
    @inlinable var header: OccurrenceHeader { storage.headers[position] }

    /// Its entity (`schema[occurrence.entity]`).
    @inlinable public var entity: EntityID { EntityID(Int(header.entity)) }
    /// Index of its entity in `schema.entities` (and in `toOneTargets`, `manyToManyTargets`, `tracksListing`).
    @inlinable package var entityIndex: Int { Int(header.entity) }
    @inlinable package var keyID: Int32 { header.keyID }
    /// Position in the whole stream.
    @inlinable public var ordinal: Int { header.ordinal }
    /// Index of the top-level payload element it came from.
    @inlinable public var unit: Int { header.unit }
    /// Its object's natural key: the value of the entity's `key` attribute.
    @inlinable public var key: RecordValue { RecordStorage.value(header.key, text: storage.text) }
    /// Whether it lists its object's children and set members, all of them where the schema says a
    /// payload lists them completely; false for a copy such as an embedded quoted message.
    @inlinable public var listsChildren: Bool { header.listsChildren }
    /// Whether the payload left out any of its attributes (read `.absent`) or to-one relationships
    /// (`toOne.isAbsent(at:)`). A write must keep what the store holds for those: an UPDATE leaves
    /// their columns out, a new row gets NULL. False for a whole object, the common case.
    @inlinable public var isPartial: Bool { header.isPartial }

    /// Whether the payload left out the member at `position` among the entity's payload columns:
    /// its attributes, then its to-one relationships. An update keeps the stored value of such a
    /// column, where a member present with null sets NULL. False throughout for a whole object.
    public func leavesOut(column position: Int) -> Bool {
        guard isPartial else { return false }
        let attributeCount = Int(header.attributeCount)
        guard position >= attributeCount else {
            if case .absent = attributes[position] { return true }
            return false
        }
        return toOne.isAbsent(at: position - attributeCount)
    }

    /// The attributes, then to-one relationships, the payload left out: which columns an update keeps.
    package var absentColumns: ColumnSet {
        if let bits = absentColumnBits { return ColumnSet(bits: bits) }
        let header = header
        var absent = ColumnSet()
        let attributeCount = Int(header.attributeCount)
        for position in 0..<attributeCount where storage.values[Int(header.valueStart) + position].tag == .absent {
            absent.insert(position)
        }
        for position in 0..<Int(header.toOneCount) where storage.references[Int(header.referenceStart) + position].isAbsent {
            absent.insert(attributeCount + position)
        }
        return absent
    }

    /// `absentColumns` as one word, without allocating, for an entity of at most 64 attributes and
    /// to-one relationships (nil for a wider one): what a strategy compares per object.
    @inline(__always)
    @inlinable package var absentColumnBits: UInt64? {
        let header = header
        let attributeCount = Int(header.attributeCount)
        guard attributeCount + Int(header.toOneCount) <= 64 else { return nil }
        guard header.isPartial else { return 0 }
        var bits: UInt64 = 0
        let values = storage.values + Int(header.valueStart)
        for position in 0..<attributeCount where values[position].tag == .absent { bits |= 1 << UInt64(position) }
        let references = storage.references + Int(header.referenceStart)
        for position in 0..<Int(header.toOneCount) where references[position].isAbsent { bits |= 1 << UInt64(attributeCount + position) }
        return bits
    }

    /// In the order of the entity's `attributes`.
    @inlinable public var attributes: BatchValues {
        let header = header
        return BatchValues(storage: storage, start: Int(header.valueStart), count: Int(header.attributeCount))
    }

    /// In the order of the entity's `toOne`; nil is a NULL relationship, or one the payload left out
    /// (`toOne.isAbsent(at:)`).
    @inlinable public var toOne: BatchToOne {
        let header = header
        return BatchToOne(storage: storage, start: Int(header.referenceStart), count: Int(header.toOneCount))
    }

    /// In the order of the entity's `manyToMany`.
    @inlinable public var manyToMany: BatchSets {
        let header = header
        return BatchSets(
            storage: storage, firstMember: Int(header.referenceStart) + Int(header.toOneCount),
            setStart: Int(header.setStart), count: Int(header.setCount))
    }

    /// Starts loading the occurrence's header into the cache, for a loop that will read it a few
    /// objects later (the ceiling reads last occurrences scattered over every batch).
    @inline(__always)
    @inlinable package func prefetchHeader() {
        importbench_prefetch(storage.headers + position)
    }

    /// Starts loading its key's text, first values and references (its header should be cached by now).
    @inline(__always)
    @inlinable package func prefetchContents() {
        let header = header
        if header.key.tag == .text { importbench_prefetch(storage.text + Int(header.key.bits)) }
        importbench_prefetch(storage.values + Int(header.valueStart))
        importbench_prefetch(storage.references + Int(header.referenceStart))
    }

    /// An owned copy, for error messages and tests.
    package var materialized: RecordOccurrence {
        var occurrence = RecordOccurrence(
            entity: entityIndex, key: key.storeValue, attributes: attributes.map(\.storeValue),
            toOne: toOne.map { $0?.materialized }, manyToMany: manyToMany.map { $0.map(\.materialized) })
        occurrence.ordinal = ordinal
        occurrence.unit = unit
        occurrence.keyID = keyID
        occurrence.listsChildren = listsChildren
        occurrence.absent = absentColumns
        return occurrence
    }
}

/// A relationship as a batch holds it: the target's key and key ID, and where the target was
/// embedded, if it was.
public struct BatchReference {
    @usableFromInline unowned(unsafe) let storage: RecordStorage
    @usableFromInline let stored: StoredReference

    @usableFromInline
    init(storage: RecordStorage, stored: StoredReference) {
        self.storage = storage
        self.stored = stored
    }

    /// The target's natural key: the reference points at the target entity's row with this key.
    @inlinable public var key: RecordValue { RecordStorage.value(stored.key, text: storage.text) }
    @inlinable package var keyID: Int32 { stored.keyID }
    /// The stream ordinal of the embedded target occurrence; nil for a reference given by key only.
    @inlinable public var embeddedOrdinal: Int? { stored.embeddedOrdinal >= 0 ? stored.embeddedOrdinal : nil }
    @inlinable package var isKeyOnly: Bool { stored.embeddedOrdinal < 0 }

    package var materialized: Reference {
        var reference = Reference(key: key.storeValue, embeddedOrdinal: embeddedOrdinal)
        reference.keyID = keyID
        return reference
    }
}

/// Consecutive occurrences of one storage.
@usableFromInline package struct BatchSegment: Sendable {
    @usableFromInline package let storage: RecordStorage
    @usableFromInline package let start: Int
    @usableFromInline package let count: Int
}

/// Every occurrence of a batch, in stream order, over the storages they lie in: the rest of a
/// storage an earlier batch began, then newer ones. A batch of a few thousand occurrences spans one
/// or two; a batch that keeps the whole payload (`--batch-size all`) spans one per part the builder
/// sealed on the way (`RecordBuilder.sealPart`), so that its buffers never grow by copying. It
/// keeps its storages alive; the occurrences it hands out do not.
public struct BatchOccurrences: RandomAccessCollection, Sendable {
    /// The first two segments inline, as nearly every batch has no more; the second may be empty.
    @usableFromInline let first: BatchSegment
    @usableFromInline let second: BatchSegment
    /// Segments after the second, and where each starts among the batch's occurrences.
    private let rest: [BatchSegment]
    private let restStarts: [Int]
    @usableFromInline let total: Int

    /// `segments` in stream order; at least one.
    init(_ segments: [BatchSegment]) {
        precondition(!segments.isEmpty, "a batch of no segment")
        first = segments[0]
        second = segments.count > 1 ? segments[1] : BatchSegment(storage: first.storage, start: first.start, count: 0)
        rest = Array(segments.dropFirst(2))
        var starts: [Int] = []
        var position = first.count + second.count
        for segment in rest {
            starts.append(position)
            position += segment.count
        }
        restStarts = starts
        total = position
    }

    /// The occurrences of one storage alone.
    init(_ only: BatchSegment) {
        self.init([only])
    }

    /// Always 0.
    @inlinable public var startIndex: Int { 0 }
    /// How many occurrences the batch holds.
    @inlinable public var endIndex: Int { total }

    /// The segments in stream order, empty ones left out.
    package var segments: [BatchSegment] {
        ([first, second] + rest).filter { $0.count > 0 }
    }

    /// The occurrence at `position`, in payload order.
    @inline(__always)
    @inlinable public subscript(position: Int) -> BatchOccurrence {
        precondition(position >= 0 && position < endIndex, "occurrence index out of range")
        if position < first.count { return BatchOccurrence(storage: first.storage, position: first.start + position) }
        let inSecond = position - first.count
        if inSecond < second.count { return BatchOccurrence(storage: second.storage, position: second.start + inSecond) }
        return laterOccurrence(at: position)
    }

    /// An occurrence past the second segment, found by binary search over the segments' starts.
    @inline(never)
    @usableFromInline func laterOccurrence(at position: Int) -> BatchOccurrence {
        var low = 0
        var high = restStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if restStarts[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return BatchOccurrence(storage: rest[low].storage, position: rest[low].start + position - restStarts[low])
    }

    /// Walks the segments in order rather than searching for each position.
    public func makeIterator() -> Iterator {
        Iterator(occurrences: self)
    }

    /// The occurrences in stream order, segment by segment.
    public struct Iterator: IteratorProtocol {
        private let occurrences: BatchOccurrences
        /// The segment being walked: 0 and 1 are `first` and `second`, then `rest`'s.
        private var segment = 0
        private var position: Int
        private var end: Int
        private var storage: RecordStorage

        init(occurrences: BatchOccurrences) {
            self.occurrences = occurrences
            storage = occurrences.first.storage
            position = occurrences.first.start
            end = occurrences.first.start + occurrences.first.count
        }

        /// The next occurrence, or nil after the last.
        public mutating func next() -> BatchOccurrence? {
            while position == end {
                segment += 1
                let next: BatchSegment
                if segment == 1 {
                    next = occurrences.second
                } else if segment - 2 < occurrences.rest.count {
                    next = occurrences.rest[segment - 2]
                } else {
                    return nil
                }
                storage = next.storage
                position = next.start
                end = next.start + next.count
            }
            defer { position += 1 }
            return BatchOccurrence(storage: storage, position: position)
        }
    }
}

/// An occurrence's attribute values, in the order of the entity's `attributes`, read in place.
public struct BatchValues: RandomAccessCollection {
    @usableFromInline unowned(unsafe) let storage: RecordStorage
    @usableFromInline let start: Int
    /// How many there are.
    public let count: Int
    @usableFromInline
    init(storage: RecordStorage, start: Int, count: Int) {
        self.storage = storage
        self.start = start
        self.count = count
    }

    /// Always 0.
    @inlinable public var startIndex: Int { 0 }
    /// Equal to `count`.
    @inlinable public var endIndex: Int { count }

    /// The value of the entity's attribute at `position`.
    @inline(__always)
    @inlinable public subscript(position: Int) -> RecordValue {
        precondition(position >= 0 && position < count, "index out of range")
        return RecordStorage.value(storage.values[start + position], text: storage.text)
    }
}

/// An occurrence's to-one references, in the order of the entity's `toOne`; nil where the
/// relationship is NULL or left out.
public struct BatchToOne: RandomAccessCollection {
    @usableFromInline unowned(unsafe) let storage: RecordStorage
    @usableFromInline let start: Int
    /// How many there are.
    public let count: Int
    @usableFromInline
    init(storage: RecordStorage, start: Int, count: Int) {
        self.storage = storage
        self.start = start
        self.count = count
    }

    /// Always 0.
    @inlinable public var startIndex: Int { 0 }
    /// Equal to `count`.
    @inlinable public var endIndex: Int { count }

    /// The reference of the entity's to-one relationship at `position`; nil where it is NULL or
    /// left out.
    @inline(__always)
    @inlinable public subscript(position: Int) -> BatchReference? {
        precondition(position >= 0 && position < count, "index out of range")
        let stored = storage.references[start + position]
        return stored.isPresent ? BatchReference(storage: storage, stored: stored) : nil
    }

    /// Whether the payload left the relationship at `position` out of this occurrence (as opposed
    /// to setting it to null): an update keeps the stored one.
    @inlinable public func isAbsent(at position: Int) -> Bool {
        precondition(position >= 0 && position < count, "index out of range")
        return storage.references[start + position].isAbsent
    }
}

/// The members of one many-to-many set, in payload order, repeats kept.
public struct BatchReferences: RandomAccessCollection {
    @usableFromInline unowned(unsafe) let storage: RecordStorage
    @usableFromInline let start: Int
    /// How many there are.
    public let count: Int
    @usableFromInline
    init(storage: RecordStorage, start: Int, count: Int) {
        self.storage = storage
        self.start = start
        self.count = count
    }

    /// Always 0.
    @inlinable public var startIndex: Int { 0 }
    /// Equal to `count`.
    @inlinable public var endIndex: Int { count }

    /// The member at `position`, in payload order.
    @inline(__always)
    @inlinable public subscript(position: Int) -> BatchReference {
        precondition(position >= 0 && position < count, "index out of range")
        return BatchReference(storage: storage, stored: storage.references[start + position])
    }
}

/// An occurrence's many-to-many sets, in the order of the entity's `manyToMany`.
public struct BatchSets: RandomAccessCollection {
    @usableFromInline unowned(unsafe) let storage: RecordStorage
    /// Index of the first set's first member in the storage's references.
    @usableFromInline let firstMember: Int
    @usableFromInline let setStart: Int
    /// How many there are.
    public let count: Int
    @usableFromInline
    init(storage: RecordStorage, firstMember: Int, setStart: Int, count: Int) {
        self.storage = storage
        self.firstMember = firstMember
        self.setStart = setStart
        self.count = count
    }

    /// Always 0.
    @inlinable public var startIndex: Int { 0 }
    /// Equal to `count`.
    @inlinable public var endIndex: Int { count }

    /// The members of the entity's many-to-many relationship at `position`.
    @inlinable public subscript(position: Int) -> BatchReferences {
        precondition(position >= 0 && position < count, "set index out of range")
        let begin = position == 0 ? firstMember : Int(storage.setEnds[setStart + position - 1])
        let end = Int(storage.setEnds[setStart + position])
        return BatchReferences(storage: storage, start: begin, count: end - begin)
    }
}
