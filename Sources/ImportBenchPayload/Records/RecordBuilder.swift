import ImportBenchSchema
import ImportBenchStore

/// Where a reader writes occurrences, one at a time, into compact buffers that become a batch's
/// storage without a copy. An occurrence is `begin(entity:)`, its key and attribute values in the
/// entity's order, its to-one references in order, then each many-to-many set (`beginSet()` and
/// its members), then `finish()`. Keys get their IDs from the import's interner when their unit
/// ends; a reference to an embedded object takes its target's key, and then its ID, without hashing.
///
/// Values are copied into the builder's own bytes, so a reader may lend bytes that die with the
/// call (a parsed element's buffer). Occurrences of one top-level element form a unit
/// (`beginUnit`/`endUnit`); a unit that fails to decode can be discarded whole.
package final class RecordBuilder {
    let interner: KeyInterner
    private let toOneTargets: [[Int]]
    private let manyToManyTargets: [[Int]]

    /// Everything the builder changes, behind a pointer: a class's stored `var`s would cost a
    /// runtime exclusivity check on every access, several per value written.
    private let state: UnsafeMutablePointer<State>

    private struct State {
        var headers = PODArray<OccurrenceHeader>(capacity: 1024)
        var values = PODArray<StoredValue>(capacity: 4096)
        var references = PODArray<StoredReference>(capacity: 2048)
        var setEnds = PODArray<Int32>(capacity: 256)
        var text = PODArray<UInt8>(capacity: 1 << 16)
        /// Stream ordinal of `headers[0]`.
        var firstOrdinal = 0
        var nextUnit = 0
        var currentUnit = 0
        /// Buffer counts when the current unit began, to discard it.
        var unitStart = (headers: 0, values: 0, references: 0, setEnds: 0, text: 0)
        /// The occurrence being built.
        var building = OccurrenceHeader(
            key: .null, ordinal: 0, unit: 0, keyID: -1, entity: -1, valueStart: 0, referenceStart: 0, setStart: 0,
            attributeCount: 0, toOneCount: 0, setCount: 0, listsChildren: true, isPartial: false)
        var inSets = false
        /// Members of the occurrence being built that the payload left out.
        var absentCount = 0
        /// Whether the current unit's keys still await their IDs (`endUnit`).
        var unitOpen = false
        /// Per occurrence of the open unit, appended as each finishes: its key's hash (0 for a key that is
        /// not text). Empty whenever no unit is open: every way a unit closes empties it.
        var hashes = PODArray<UInt64>(capacity: 1024)
        /// Where the key being composed with `appendKeyText` starts in `text`.
        var composedKeyStart = -1
        /// Storages sealed and not yet wholly taken by batches, oldest first: the first from
        /// `pendingStart` on. A storage a batch cut in the middle of, then parts `sealPart` sealed.
        var pending: [RecordStorage] = []
        var pendingStart = 0
        /// Occurrences in `pending` no batch has taken yet.
        var pendingCount = 0
    }

    private var headers: PODArray<OccurrenceHeader> {
        _read { yield state.pointee.headers }
        _modify { yield &state.pointee.headers }
    }
    private var values: PODArray<StoredValue> {
        _read { yield state.pointee.values }
        _modify { yield &state.pointee.values }
    }
    private var references: PODArray<StoredReference> {
        _read { yield state.pointee.references }
        _modify { yield &state.pointee.references }
    }
    private var setEnds: PODArray<Int32> {
        _read { yield state.pointee.setEnds }
        _modify { yield &state.pointee.setEnds }
    }
    private var text: PODArray<UInt8> {
        _read { yield state.pointee.text }
        _modify { yield &state.pointee.text }
    }
    private var building: OccurrenceHeader {
        _read { yield state.pointee.building }
        _modify { yield &state.pointee.building }
    }

    package init(schema: Schema, interner: KeyInterner) {
        self.interner = interner
        toOneTargets = schema.toOneTargets
        manyToManyTargets = schema.manyToManyTargets
        state = .allocate(capacity: 1)
        state.initialize(to: State())
    }

    deinit {
        state.pointee.hashes.free()
        headers.free()
        values.free()
        references.free()
        setEnds.free()
        text.free()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Units begun and not discarded: a reader's call that wrote one unit moves it by one.
    var unitsBegun: Int { state.pointee.nextUnit }

    /// Occurrences finished and not yet cut into a batch.
    package var count: Int {
        state.pointee.pendingCount + headers.count
    }
    /// The ordinal the next occurrence will have: occurrences finished so far, in the whole stream.
    package var nextOrdinal: Int { state.pointee.firstOrdinal + headers.count }

    // MARK: Units

    package func beginUnit() {
        endUnit()
        state.pointee.unitOpen = true
        state.pointee.currentUnit = state.pointee.nextUnit
        state.pointee.nextUnit += 1
        state.pointee.unitStart = (headers.count, values.count, references.count, setEnds.count, text.count)
        interner.mark()
    }

    /// Forgets every occurrence of the current unit, and the keys it met first, as if it had never begun.
    package func discardUnit() {
        headers.truncate(to: state.pointee.unitStart.headers)
        values.truncate(to: state.pointee.unitStart.values)
        references.truncate(to: state.pointee.unitStart.references)
        setEnds.truncate(to: state.pointee.unitStart.setEnds)
        text.truncate(to: state.pointee.unitStart.text)
        building.entity = -1
        state.pointee.nextUnit = state.pointee.currentUnit
        state.pointee.unitOpen = false
        state.pointee.hashes.truncate(to: 0)
        interner.forgetSinceMark()
    }

    /// Gives the unit's keys their IDs, then the unit's references to its own occurrences theirs.
    /// Done for the whole unit at once rather than per occurrence: a new key's slot in a large
    /// table is a cache miss, and here the slots of the next few keys are loading while one is
    /// looked up. A unit of one occurrence (a product) has no next key: its slot began loading when
    /// the occurrence finished, and the next element is parsed before the unit ends. `beginUnit` and
    /// `cut` end an open unit; a reader need not call it.
    package func endUnit() {
        guard state.pointee.unitOpen else { return }
        state.pointee.unitOpen = false
        let first = state.pointee.unitStart.headers
        let count = headers.count - first
        defer { state.pointee.hashes.truncate(to: 0) }
        guard count > 0 else { return }
        precondition(state.pointee.hashes.count == count, "an occurrence of the unit without its key's hash")
        let hashes = state.pointee.hashes.base
        let lookahead = 8
        func prefetch(_ offset: Int) {
            if offset < count { interner.prefetch(entity: Int(headers[first + offset].entity), hash: hashes[offset]) }
        }
        for offset in 0..<lookahead { prefetch(offset) }
        for offset in 0..<count {
            prefetch(offset + lookahead)
            let header = headers[first + offset]
            let id =
                header.key.tag == .text
                ? interner.id(entity: Int(header.entity), text: textBytes(header.key), hash: hashes[offset])
                : intern(header.key, entity: Int(header.entity))
            headers[first + offset].keyID = id
        }
        let firstOrdinal = state.pointee.firstOrdinal
        for index in state.pointee.unitStart.references..<references.count where references[index].keyID < 0 {
            let target = references[index].embeddedOrdinal - firstOrdinal
            if target >= 0, references[index].isPresent { references[index].keyID = headers[target].keyID }
        }
    }

    // MARK: Occurrences

    package func begin(entity: Int) {
        precondition(building.entity < 0, "begin(entity:) before the previous occurrence finished")
        building.entity = Int32(entity)
        building.key = .null
        building.valueStart = Int32(values.count)
        building.referenceStart = Int32(references.count)
        building.setStart = Int32(setEnds.count)
        building.listsChildren = true
        state.pointee.inSets = false
        state.pointee.absentCount = 0
    }

    /// Marks the occurrence being built as a copy that lists none of its object's children or set
    /// members (an embedded quoted message): a refresh then keeps the ones stored before, where an
    /// occurrence that lists them replaces them.
    package func listsNoChildren() {
        precondition(building.entity >= 0, "listsNoChildren() outside an occurrence")
        building.listsChildren = false
    }

    /// Ends the occurrence; the handle lets later occurrences of the unit refer to it. Its key gets
    /// its ID when the unit ends.
    @discardableResult
    package func finish() -> OccurrenceHandle {
        precondition(building.entity >= 0, "finish() without begin(entity:)")
        closeSets()
        building.attributeCount = UInt16(values.count - Int(building.valueStart))
        building.setCount = UInt16(setEnds.count - Int(building.setStart))
        building.ordinal = nextOrdinal
        building.unit = state.pointee.currentUnit
        building.keyID = -1
        building.isPartial = state.pointee.absentCount > 0
        precondition(references.count < Int(Int32.max) && values.count < Int(Int32.max), "a batch of over 2^31 values")
        headers.append(building)
        if state.pointee.unitOpen { hashKey(of: building) }
        building.entity = -1
        return OccurrenceHandle(ordinal: building.ordinal)
    }

    /// Keeps the hash of a text key for `endUnit` and starts loading its slot in the interner.
    @inline(__always)
    private func hashKey(of header: OccurrenceHeader) {
        guard header.key.tag == .text else {
            state.pointee.hashes.append(0)
            return
        }
        let hash = KeyTable.hash(textBytes(header.key), tag: .text)
        state.pointee.hashes.append(hash)
        interner.prefetch(entity: Int(header.entity), hash: hash)
    }

    @inline(__always)
    private func textBytes(_ value: StoredValue) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: text.base + Int(value.bits), count: Int(value.length))
    }

    private func intern(_ key: StoredValue, entity: Int) -> Int32 {
        if key.tag == .text {
            return interner.id(entity: entity, text: textBytes(key))
        }
        return interner.id(entity: entity, tag: key.tag, bits: key.bits)
    }

    // MARK: Keys

    package func key(text bytes: UnsafeRawBufferPointer) {
        building.key = store(bytes)
    }

    package func key(_ value: StoreValue) {
        building.key = stored(value)
    }

    /// The key's text is composed from parts: `appendKeyText` each, then `endKeyText()`.
    package func beginKeyText() {
        state.pointee.composedKeyStart = text.count
    }

    /// Appends text already in the builder (an earlier key or value).
    package func appendKeyText(_ span: TextSpan) {
        let destination = text.extend(by: span.length)
        // After `extend`: the buffer may have moved.
        destination.update(from: text.base + span.offset, count: span.length)
    }

    /// Appends bytes from outside the builder (a payload's string).
    package func appendKeyText(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        text.extend(by: bytes.count).update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
    }

    package func appendKeyText(byte: UInt8) {
        text.append(byte)
    }

    package func appendKeyText(decimal value: Int) {
        _ = storeDecimal(value)
    }

    /// The key as an integer's decimal text, as `String(value)` writes it, with no String made: a
    /// payload whose ids are numbers has one per object.
    package func key(decimal value: Int) {
        building.key = storeDecimal(value)
    }

    /// Appends `value`'s decimal text to `text` and returns it as a stored text value.
    private func storeDecimal(_ value: Int) -> StoredValue {
        let start = text.count
        if value < 0 { text.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var divisor: UInt = 1
        while magnitude / divisor >= 10 { divisor *= 10 }
        repeat {
            text.append(UInt8(ascii: "0") + UInt8(magnitude / divisor))
            magnitude %= divisor
            divisor /= 10
        } while divisor > 0
        return StoredValue(bits: Int64(start), length: UInt32(text.count - start), tag: .text)
    }

    package func endKeyText() {
        precondition(state.pointee.composedKeyStart >= 0, "endKeyText() without beginKeyText()")
        building.key = StoredValue(
            bits: Int64(state.pointee.composedKeyStart), length: UInt32(text.count - state.pointee.composedKeyStart), tag: .text)
        state.pointee.composedKeyStart = -1
    }

    /// The text of a finished occurrence's key, to compose another key from; nil if it is not text.
    package func keyText(of handle: OccurrenceHandle) -> TextSpan? {
        let key = headers[handle.ordinal - state.pointee.firstOrdinal].key
        return key.tag == .text ? TextSpan(offset: Int(key.bits), length: Int(key.length)) : nil
    }

    // MARK: Attribute values

    /// Appends a text value; the span lets a key be composed from it.
    @discardableResult
    package func text(_ bytes: UnsafeRawBufferPointer) -> TextSpan {
        let value = store(bytes)
        values.append(value)
        return TextSpan(offset: Int(value.bits), length: Int(value.length))
    }

    /// A text value `fill` writes in place, given room for `capacity` bytes; it returns how many it
    /// wrote. For text that is made while copied (JSON's escapes undone): no scratch buffer between.
    @discardableResult
    package func text(capacity: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Int) -> TextSpan {
        let offset = text.count
        let written = fill(UnsafeMutableBufferPointer(start: text.extend(by: capacity), count: capacity))
        text.truncate(to: offset + written)
        values.append(StoredValue(bits: Int64(offset), length: UInt32(written), tag: .text))
        return TextSpan(offset: offset, length: written)
    }

    package func integer(_ value: Int64) {
        values.append(StoredValue(bits: value, length: 0, tag: .integer))
    }

    package func real(_ value: Double) {
        values.append(StoredValue(bits: Int64(bitPattern: value.bitPattern), length: 0, tag: .real))
    }

    package func null() {
        values.append(.null)
    }

    /// An attribute the payload left out of this occurrence: an update keeps the stored value.
    package func absent() {
        values.append(.absent)
        state.pointee.absentCount += 1
    }

    package func value(_ value: StoreValue) {
        values.append(stored(value))
    }

    // MARK: References

    /// A to-one reference or set member pointing at an occurrence of this unit; it takes the
    /// target's key ID when the unit ends.
    package func reference(to target: OccurrenceHandle) {
        let header = headers[target.ordinal - state.pointee.firstOrdinal]
        references.append(StoredReference(key: header.key, embeddedOrdinal: target.ordinal, keyID: header.keyID, isPresent: true))
    }

    /// A reference given by the target's key only (a `channel_id`).
    package func reference(keyText bytes: UnsafeRawBufferPointer) {
        reference(storedKey: store(bytes))
    }

    /// `reference(keyText:)` for a key that is an integer, as `key(decimal:)` writes it.
    package func reference(decimalKey value: Int) {
        reference(storedKey: storeDecimal(value))
    }

    private func reference(storedKey key: StoredValue) {
        references.append(StoredReference(key: key, embeddedOrdinal: -1, keyID: intern(key, entity: currentTarget), isPresent: true))
    }

    package func reference(key: StoreValue) {
        reference(key: key, embeddedOrdinal: -1)
    }

    func reference(key: StoreValue, embeddedOrdinal: Int) {
        let key = stored(key)
        references.append(
            StoredReference(key: key, embeddedOrdinal: embeddedOrdinal, keyID: intern(key, entity: currentTarget), isPresent: true))
    }

    /// `reference(to:)` when the target occurrence is of the entity the reference points at; false otherwise.
    func reference(to target: OccurrenceHandle, ifEntity entity: Int) -> Bool {
        guard entity == currentTarget else { return false }
        reference(to: target)
        return true
    }

    /// A to-one relationship set to NULL.
    package func noReference() {
        references.append(.null)
    }

    /// A to-one relationship the payload left out of this occurrence: an update keeps the stored one.
    package func absentReference() {
        references.append(.absent)
        state.pointee.absentCount += 1
    }

    /// Starts the next many-to-many set; every reference after it is a member.
    package func beginSet() {
        if !state.pointee.inSets {
            building.toOneCount = UInt16(references.count - Int(building.referenceStart))
            state.pointee.inSets = true
        } else {
            setEnds.append(Int32(references.count))
        }
    }

    private func closeSets() {
        if state.pointee.inSets {
            setEnds.append(Int32(references.count))
        } else {
            building.toOneCount = UInt16(references.count - Int(building.referenceStart))
        }
    }

    /// The entity the next reference points at: the next to-one relationship's target, or the open set's.
    private var currentTarget: Int {
        let entity = Int(building.entity)
        if state.pointee.inSets { return manyToManyTargets[entity][setEnds.count - Int(building.setStart)] }
        return toOneTargets[entity][references.count - Int(building.referenceStart)]
    }

    // MARK: Missing references

    /// Ends the unit just read and checks it for `MissingReferenceResolver`: true when every
    /// key-only reference names a key in `known` or one an earlier occurrence of the unit has; the
    /// unit's keys are then known. False leaves `known` as it was. Reads IDs only; a key is hashed
    /// only to look it up among the preload's, once per key.
    func unitReferencesAreKnown(_ known: KnownKeys) -> Bool {
        endUnit()
        known.beginTentative()
        for position in state.pointee.unitStart.headers..<headers.count {
            let header = headers[position]
            let entity = Int(header.entity)
            let toOneStart = Int(header.referenceStart)
            for index in 0..<Int(header.toOneCount) {
                guard isKnown(references[toOneStart + index], entity: toOneTargets[entity][index], known) else {
                    known.rollback()
                    return false
                }
            }
            var memberStart = toOneStart + Int(header.toOneCount)
            for set in 0..<Int(header.setCount) {
                let end = Int(setEnds[Int(header.setStart) + set])
                for index in memberStart..<end where !isKnown(references[index], entity: manyToManyTargets[entity][set], known) {
                    known.rollback()
                    return false
                }
                memberStart = end
            }
            known.insert(entity: entity, id: header.keyID)
        }
        known.commit()
        return true
    }

    private func isKnown(_ reference: StoredReference, entity: Int, _ known: KnownKeys) -> Bool {
        guard reference.isPresent, reference.embeddedOrdinal < 0, !known.contains(entity: entity, id: reference.keyID) else { return true }
        guard let stored = known.stored else { return false }
        let found: Bool
        if reference.key.tag == .text {
            found = stored.contains(entity: entity, tag: .text, bytes: textBytes(reference.key))
        } else {
            found = withUnsafeBytes(of: reference.key.bits.littleEndian) { stored.contains(entity: entity, tag: reference.key.tag, bytes: $0) }
        }
        if found { known.insert(entity: entity, id: reference.keyID) }
        return found
    }

    /// The unit just read, as owned occurrences with references by unit index: for a reader that
    /// must change it, `discardUnit()` and then `append(_:)` it again.
    func materializedUnit() -> RecordUnit {
        let first = state.pointee.unitStart.headers
        let unitOrdinal = state.pointee.firstOrdinal + first
        func value(_ stored: StoredValue) -> StoreValue { RecordStorage.value(stored, text: text.base).storeValue }
        func reference(_ stored: StoredReference) -> Reference? {
            guard stored.isPresent else { return nil }
            return stored.embeddedOrdinal >= 0
                ? .embedded(value(stored.key), at: stored.embeddedOrdinal - unitOrdinal) : .keyOnly(value(stored.key))
        }
        var occurrences: [RecordOccurrence] = []
        occurrences.reserveCapacity(headers.count - first)
        for position in first..<headers.count {
            let header = headers[position]
            let valueStart = Int(header.valueStart)
            let toOneStart = Int(header.referenceStart)
            var sets: [[Reference]] = []
            var memberStart = toOneStart + Int(header.toOneCount)
            for set in 0..<Int(header.setCount) {
                let end = Int(setEnds[Int(header.setStart) + set])
                sets.append((memberStart..<end).compactMap { reference(references[$0]) })
                memberStart = end
            }
            var occurrence = RecordOccurrence(
                entity: Int(header.entity), key: value(header.key),
                attributes: (valueStart..<valueStart + Int(header.attributeCount)).map { value(values[$0]) },
                toOne: (toOneStart..<toOneStart + Int(header.toOneCount)).map { reference(references[$0]) },
                manyToMany: sets)
            occurrence.listsChildren = header.listsChildren
            if header.isPartial {
                let attributeCount = Int(header.attributeCount)
                occurrence.absent = ColumnSet(
                    (0..<attributeCount).filter { values[valueStart + $0].tag == .absent }
                        + (0..<Int(header.toOneCount)).filter { references[toOneStart + $0].isAbsent }.map { attributeCount + $0 })
            }
            occurrences.append(occurrence)
        }
        return RecordUnit(occurrences: occurrences, path: "", byteOffset: 0)
    }

    // MARK: Storing values

    private func store(_ bytes: UnsafeRawBufferPointer) -> StoredValue {
        let offset = text.count
        if let source = bytes.baseAddress, bytes.count > 0 {
            text.extend(by: bytes.count).initialize(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        }
        return StoredValue(bits: Int64(offset), length: UInt32(bytes.count), tag: .text)
    }

    private func stored(_ value: StoreValue) -> StoredValue {
        switch value {
        case .null: return .null
        case .integer(let integer): return StoredValue(bits: integer, length: 0, tag: .integer)
        case .real(let real): return StoredValue(bits: Int64(bitPattern: real.bitPattern), length: 0, tag: .real)
        case .text(let string): return string.withUTF8Bytes { store($0) }
        }
    }

    // MARK: Batches

    /// The next `count` occurrences as a batch, without copying any. Finished occurrences are sealed
    /// into a storage of their own; those past the batch stay there for the next batch, which then
    /// reads two storages (the rest of this one, then one sealed later), or more after `sealPart`.
    /// Copying them instead cost a tenth of decoding: a chat channel is longer than a batch of 1,000.
    package func cut(first count: Int, index: Int) -> RecordBatch {
        endUnit()
        precondition(building.entity < 0 && count <= self.count, "cut inside an occurrence, or past the end")
        guard count > 0 else {
            // Nothing taken: what is unsealed waits, sealed, for the next batch.
            sealPart()
            let storage = state.pointee.pending.first ?? seal()
            return RecordBatch(
                index: index, occurrences: BatchOccurrences(BatchSegment(storage: storage, start: state.pointee.pendingStart, count: 0)))
        }
        if count > state.pointee.pendingCount { sealPart() }
        var remaining = count
        var segments: [BatchSegment] = []
        while remaining > 0, let oldest = state.pointee.pending.first {
            let start = state.pointee.pendingStart
            let taken = min(oldest.count - start, remaining)
            segments.append(BatchSegment(storage: oldest, start: start, count: taken))
            remaining -= taken
            state.pointee.pendingCount -= taken
            if start + taken == oldest.count {
                state.pointee.pending.removeFirst()
                state.pointee.pendingStart = 0
            } else {
                state.pointee.pendingStart = start + taken
            }
        }
        return RecordBatch(index: index, occurrences: BatchOccurrences(segments))
    }

    /// Occurrences finished since the last part was sealed.
    var unsealedCount: Int { headers.count }

    /// Hands the finished occurrences over to a storage of their own, left for `cut` to take: the
    /// batcher calls it between units while one large batch fills, so that a batch of the whole
    /// payload is built part after part in buffers sized once, instead of in buffers that grow by
    /// doubling (each growth copies everything so far into memory the kernel must fault in and clear).
    func sealPart() {
        endUnit()
        precondition(building.entity < 0, "a part sealed inside an occurrence")
        guard headers.count > 0 else { return }
        let storage = seal()
        state.pointee.pending.append(storage)
        state.pointee.pendingCount += storage.count
    }

    /// Hands every finished occurrence over to a storage and starts empty buffers, sized for as much
    /// again so that the next batch's reading rarely grows them.
    private func seal() -> RecordStorage {
        func room(_ used: Int, _ minimum: Int) -> Int { max(minimum, used + used / 4) }
        let storage = RecordStorage(headers: headers, values: values, references: references, setEnds: setEnds, text: text)
        headers = PODArray(capacity: room(storage.count, 1024))
        values = PODArray(capacity: room(storage.valueCount, 4096))
        references = PODArray(capacity: room(storage.referenceCount, 2048))
        setEnds = PODArray(capacity: room(storage.setEndCount, 256))
        text = PODArray(capacity: room(storage.textCount, 1 << 16))
        state.pointee.firstOrdinal += storage.count
        return storage
    }
}

/// An occurrence a builder has finished, for references to it from later in its unit.
package struct OccurrenceHandle: Sendable, Equatable {
    package let ordinal: Int
}

/// Where a builder holds text it was given, for composing keys from it.
package struct TextSpan: Sendable, Equatable {
    let offset: Int
    let length: Int
}
