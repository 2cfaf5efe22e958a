import ImportBenchPayload
import ImportBenchStore

/// The distinct objects of batches, per entity, in order of first appearance.
/// The last occurrence wins for attributes and to-one relationships, save those it leaves out, which
/// keep an earlier occurrence's (a merged object, see `OccurrenceMerger`); many-to-many sets are
/// unioned; an object lists its children when any of its occurrences does.
/// Objects are found by interned key ID and point into the batches they came from (which it keeps
/// alive), so collecting a batch neither hashes a key nor copies an occurrence; one instance is
/// reused batch after batch. Its tables are plain values in memory it manages (`PODArray`): the
/// ceiling collects every occurrence of the payload here inside its measurement, and Swift's nested
/// arrays cost a uniqueness check, an exclusivity check and a reference count per access.
final class UniqueObjects {
    struct Object: BitwiseCopyable {
        /// Where its last occurrence is: the storage (an index into `runs`), and the position in it.
        fileprivate(set) var run: Int32
        fileprivate(set) var index: Int32
        fileprivate let keyID: Int32
        /// Its union of sets in `mergedSets` once it has occurred twice with sets; -1 before.
        fileprivate(set) var merged: Int32
        /// Whether any of its occurrences lists its children and set members (a quoted copy does not).
        fileprivate(set) var listsChildren: Bool
    }

    private var runs: [RecordStorage] = []
    private let entityCount: Int
    /// Per entity, in order of first appearance.
    private let objects: UnsafeMutablePointer<PODArray<Object>>
    /// Per entity, by key ID: the object's position in `objects`, or -1.
    private let slots: UnsafeMutablePointer<PODArray<Int32>>
    /// The unions of the sets of objects that occurred more than once with sets (few do).
    private(set) var mergedSets: [[[BatchReference]]] = []
    /// Objects whose later occurrence was partial, merged while a segment is added.
    private let merger = OccurrenceMerger()
    /// The `run` of an object merged in the segment being added, until the merger is sealed.
    private static let mergingRun: Int32 = -1
    /// The objects (entity, slot) given `mergingRun` in the segment being added.
    private var merging: [(entity: Int, slot: Int)] = []

    init(entityCount: Int) {
        self.entityCount = entityCount
        objects = .allocate(capacity: max(entityCount, 1))
        slots = .allocate(capacity: max(entityCount, 1))
        for entity in 0..<entityCount {
            (objects + entity).initialize(to: PODArray())
            (slots + entity).initialize(to: PODArray())
        }
    }

    deinit {
        for entity in 0..<entityCount {
            objects[entity].free()
            slots[entity].free()
        }
        objects.deallocate()
        slots.deallocate()
    }

    /// Forgets what was collected, then collects the batch.
    func collect(_ batch: RecordBatch) {
        removeAll()
        add(batch)
    }

    /// Adds a batch's occurrences to what is collected.
    func add(_ batch: RecordBatch) {
        // An occurrence is kept as its storage's run and its position there.
        for segment in batch.occurrences.segments { add(segment) }
    }

    private func add(_ segment: BatchSegment) {
        let run = Int32(runs.count)
        runs.append(segment.storage)
        let headers = segment.storage.headers
        for index in segment.start..<(segment.start + segment.count) {
            let entity = Int(headers[index].entity)
            let id = Int(headers[index].keyID)
            precondition(id >= 0, "a key without an ID: records must come through a RecordBatcher")
            if id < slots[entity].count, slots[entity][id] >= 0 {
                let slot = Int(slots[entity][id])
                let object = objects[entity].base + slot
                if headers[index].setCount > 0 {
                    merge(BatchOccurrence(storage: segment.storage, position: index).manyToMany, into: object)
                }
                if headers[index].isPartial {
                    mergeValues(of: BatchOccurrence(storage: segment.storage, position: index), into: object, entity: entity, slot: slot)
                } else {
                    object.pointee.run = run
                    object.pointee.index = Int32(index)
                }
                if headers[index].listsChildren { object.pointee.listsChildren = true }
            } else {
                if id >= slots[entity].count { growSlots(of: entity, toHold: id) }
                slots[entity][id] = Int32(objects[entity].count)
                objects[entity].append(
                    Object(run: run, index: Int32(index), keyID: Int32(id), merged: -1, listsChildren: headers[index].listsChildren))
            }
        }
        sealMerged()
    }

    /// Points the object at its merged form: `later` over what it had, the members `later` leaves
    /// out kept. Rare (a payload that names an object in part after naming it whole), so out of line.
    @inline(never)
    private func mergeValues(of later: BatchOccurrence, into object: UnsafeMutablePointer<Object>, entity: Int, slot: Int) {
        if object.pointee.run == Self.mergingRun {
            merger.update(Int(object.pointee.index), with: later)
            return
        }
        object.pointee.index = Int32(merger.append(later, over: occurrence(object.pointee)))
        object.pointee.run = Self.mergingRun
        merging.append((entity, slot))
    }

    /// Seals what the segment merged into a storage of its own and points its objects there.
    private func sealMerged() {
        guard !merger.isEmpty else { return }
        let run = Int32(runs.count)
        runs.append(merger.seal())
        for (entity, slot) in merging where objects[entity][slot].run == Self.mergingRun {
            objects[entity].base[slot].run = run
        }
        merging.removeAll(keepingCapacity: true)
    }

    /// Unions a later occurrence's sets into the object's, which start as its earlier occurrence's.
    @inline(never)
    private func merge(_ sets: BatchSets, into object: UnsafeMutablePointer<Object>) {
        if object.pointee.merged < 0 {
            // An object merged in this segment is not in `runs` yet (rare: it occurred before without sets).
            if object.pointee.run == Self.mergingRun { sealMerged() }
            object.pointee.merged = Int32(mergedSets.count)
            mergedSets.append(occurrence(object.pointee).manyToMany.map(Self.distinct))
        }
        let entry = Int(object.pointee.merged)
        for (relationship, references) in sets.enumerated() {
            for reference in references where !mergedSets[entry][relationship].contains(where: { $0.keyID == reference.keyID }) {
                mergedSets[entry][relationship].append(reference)
            }
        }
    }

    @inline(never)
    private func growSlots(of entity: Int, toHold id: Int) {
        let extra = max(id + 1, slots[entity].count * 2) - slots[entity].count
        slots[entity].extend(by: extra).initialize(repeating: -1, count: extra)
    }

    /// The object's last occurrence.
    @inline(__always)
    func occurrence(_ object: Object) -> BatchOccurrence {
        BatchOccurrence(storage: runs[Int(object.run)], position: Int(object.index))
    }

    /// Each object of `entity`, in order, with its position and last occurrence. While the body
    /// works (SQLite inserting), the records of the objects a few ahead start loading: last
    /// occurrences lie scattered over every batch collected, a quarter of a GB for chat 10x at one
    /// transaction. Every strategy that writes unique objects goes through here, the ceiling too.
    /// The body must not collect more meanwhile.
    @inline(__always)
    func forEachObject(
        of entity: Int, _ body: (_ slot: Int, _ object: Object, _ occurrence: BatchOccurrence) throws -> Void
    ) rethrows {
        let objects = self.objects[entity].base
        let count = self.objects[entity].count
        for slot in 0..<count {
            if slot + 8 < count { occurrence(objects[slot + 8]).prefetchHeader() }
            if slot + 4 < count { occurrence(objects[slot + 4]).prefetchContents() }
            try body(slot, objects[slot], occurrence(objects[slot]))
        }
    }

    private static func distinct(_ references: BatchReferences) -> [BatchReference] {
        var distinct: [BatchReference] = []
        distinct.reserveCapacity(references.count)
        for reference in references where !distinct.contains(where: { $0.keyID == reference.keyID }) {
            distinct.append(reference)
        }
        return distinct
    }

    /// Position of an object among its entity's unique objects.
    @inline(__always)
    func slot(entity: Int, id: Int32) -> Int? {
        let index = Int(id)
        guard index >= 0, index < slots[entity].count else { return nil }
        let slot = slots[entity][index]
        return slot >= 0 ? Int(slot) : nil
    }

    var count: Int { (0..<entityCount).reduce(0) { $0 + objects[$1].count } }

    /// How many objects of `entity` are collected.
    func count(of entity: Int) -> Int { objects[entity].count }

    /// Forgets every object: their slots are cleared one by one, so forgetting costs what collecting did.
    func removeAll() {
        for entity in 0..<entityCount {
            let collected = objects[entity]
            for position in 0..<collected.count { slots[entity][Int(collected[position].keyID)] = -1 }
            objects[entity].truncate(to: 0)
        }
        runs.removeAll(keepingCapacity: true)
        mergedSets.removeAll(keepingCapacity: true)
    }
}
