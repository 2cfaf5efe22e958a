/// Writes the merged form of an object that a batch names more than once when a later occurrence
/// is partial: the later occurrence, with each attribute and to-one relationship it leaves out taken
/// from the earlier one (the rule of JSON Merge Patch, RFC 7396). Sets are copied as the later
/// occurrence has them; their union is `UniqueObjects`'s. Sealed into a storage of its own, like a
/// builder's, so strategies read a merged object as any other occurrence.
package final class OccurrenceMerger {
    private var headers = PODArray<OccurrenceHeader>(capacity: 16)
    private var values = PODArray<StoredValue>(capacity: 64)
    private var references = PODArray<StoredReference>(capacity: 32)
    private var setEnds = PODArray<Int32>(capacity: 16)
    private var text = PODArray<UInt8>(capacity: 1024)

    package init() {}

    deinit {
        headers.free()
        values.free()
        references.free()
        setEnds.free()
        text.free()
    }

    package var isEmpty: Bool { headers.count == 0 }

    /// Appends `later` with the members it leaves out taken from `earlier`, an occurrence of the
    /// same object; returns its position in the storage `seal()` will make.
    package func append(_ later: BatchOccurrence, over earlier: BatchOccurrence) -> Int {
        let source = later.header
        let previous = earlier.header
        var header = source
        header.key = copy(source.key, from: later.storage)
        header.valueStart = Int32(values.count)
        for position in 0..<Int(source.attributeCount) {
            let value = later.storage.values[Int(source.valueStart) + position]
            values.append(
                value.tag == .absent
                    ? copy(earlier.storage.values[Int(previous.valueStart) + position], from: earlier.storage)
                    : copy(value, from: later.storage))
        }
        header.referenceStart = Int32(references.count)
        for position in 0..<Int(source.toOneCount) {
            let reference = later.storage.references[Int(source.referenceStart) + position]
            references.append(
                reference.isAbsent
                    ? copy(earlier.storage.references[Int(previous.referenceStart) + position], from: earlier.storage)
                    : copy(reference, from: later.storage))
        }
        header.setStart = Int32(setEnds.count)
        var member = Int(source.referenceStart) + Int(source.toOneCount)
        for set in 0..<Int(source.setCount) {
            let end = Int(later.storage.setEnds[Int(source.setStart) + set])
            while member < end {
                references.append(copy(later.storage.references[member], from: later.storage))
                member += 1
            }
            setEnds.append(Int32(references.count))
        }
        headers.append(header)
        updatePartiality(headers.count - 1)
        return headers.count - 1
    }

    /// Overwrites the merged occurrence at `position` with what `later`, a newer occurrence of the
    /// same object, gives; what it leaves out stays. Its sets stay as they were: by then
    /// `UniqueObjects` holds the object's union of sets.
    package func update(_ position: Int, with later: BatchOccurrence) {
        let source = later.header
        let target = headers[position]
        for index in 0..<Int(source.attributeCount) {
            let value = later.storage.values[Int(source.valueStart) + index]
            if value.tag != .absent { values[Int(target.valueStart) + index] = copy(value, from: later.storage) }
        }
        for index in 0..<Int(source.toOneCount) {
            let reference = later.storage.references[Int(source.referenceStart) + index]
            if !reference.isAbsent { references[Int(target.referenceStart) + index] = copy(reference, from: later.storage) }
        }
        headers[position].ordinal = source.ordinal
        headers[position].unit = source.unit
        headers[position].listsChildren = source.listsChildren
        updatePartiality(position)
    }

    /// Hands the merged occurrences over to a storage and starts empty buffers.
    package func seal() -> RecordStorage {
        let storage = RecordStorage(headers: headers, values: values, references: references, setEnds: setEnds, text: text)
        headers = PODArray(capacity: 16)
        values = PODArray(capacity: 64)
        references = PODArray(capacity: 32)
        setEnds = PODArray(capacity: 16)
        text = PODArray(capacity: 1024)
        return storage
    }

    private func updatePartiality(_ position: Int) {
        let header = headers[position]
        var partial = false
        for index in 0..<Int(header.attributeCount) where values[Int(header.valueStart) + index].tag == .absent { partial = true }
        for index in 0..<Int(header.toOneCount) where references[Int(header.referenceStart) + index].isAbsent { partial = true }
        headers[position].isPartial = partial
    }

    /// The value with its text, if any, copied into this merger's bytes.
    private func copy(_ value: StoredValue, from storage: RecordStorage) -> StoredValue {
        guard value.tag == .text else { return value }
        let offset = text.count
        if value.length > 0 {
            text.extend(by: Int(value.length)).update(from: storage.text + Int(value.bits), count: Int(value.length))
        }
        return StoredValue(bits: Int64(offset), length: value.length, tag: .text)
    }

    private func copy(_ reference: StoredReference, from storage: RecordStorage) -> StoredReference {
        var copied = reference
        copied.key = copy(reference.key, from: storage)
        return copied
    }
}
