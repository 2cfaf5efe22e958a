import ImportBenchStore

/// The distinct objects of batches, per entity, in order of first appearance.
/// The last occurrence wins for attributes and to-one relationships; many-to-many sets are unioned.
/// Objects are found by interned key ID and point into the batches they came from (which it keeps
/// alive), so collecting a batch neither hashes a key nor copies an occurrence; one instance is
/// reused batch after batch.
struct UniqueObjects {
    struct Object {
        /// Where its last occurrence is: the batch, and the position in it.
        fileprivate(set) var run: Int32
        fileprivate(set) var index: Int32
        /// The union of its occurrences' sets, once it has occurred twice; nil before.
        fileprivate(set) var mergedManyToMany: [[BatchReference]]?

        /// One mutation for both, so a later occurrence costs one access to the nested arrays.
        @inline(__always)
        fileprivate mutating func move(run: Int32, index: Int32) {
            self.run = run
            self.index = index
        }
    }

    private var runs: [RecordStorage] = []
    private(set) var objects: [[Object]]
    /// Per entity, by key ID: the object's position in `objects`.
    private var slots: ValuesByKeyID<Int32>

    init(entityCount: Int) {
        objects = Array(repeating: [], count: entityCount)
        slots = ValuesByKeyID(entityCount: entityCount)
    }

    /// Forgets what was collected, then collects the batch.
    mutating func collect(_ batch: RecordBatch) {
        removeAll()
        add(batch)
    }

    /// Adds a batch's occurrences to what is collected.
    mutating func add(_ batch: RecordBatch) {
        let occurrences = batch.occurrences
        // An occurrence is kept as its storage's run and its position there; a batch spans at most two storages.
        let firstRun = Int32(runs.count)
        runs.append(occurrences.first.storage)
        if occurrences.second.count > 0 { runs.append(occurrences.second.storage) }
        for position in occurrences.indices {
            let occurrence = occurrences[position]
            let runIndex = position < occurrences.first.count ? firstRun : firstRun + 1
            let index = occurrence.position
            let entity = occurrence.entity
            let id = occurrence.keyID
            if let found = slots[entity, id] {
                let slot = Int(found)
                let sets = occurrence.manyToMany
                if !sets.isEmpty {
                    // Read only here: copying the object copies its merged sets, a reference count each time.
                    let earlier = objects[entity][slot]
                    var merged = earlier.mergedManyToMany ?? self.occurrence(earlier).manyToMany.map(Self.distinct)
                    for (relationship, references) in sets.enumerated() {
                        for reference in references where !merged[relationship].contains(where: { $0.keyID == reference.keyID }) {
                            merged[relationship].append(reference)
                        }
                    }
                    objects[entity][slot].mergedManyToMany = merged
                }
                objects[entity][slot].move(run: runIndex, index: Int32(index))
            } else {
                slots[entity, id] = Int32(objects[entity].count)
                objects[entity].append(Object(run: runIndex, index: Int32(index), mergedManyToMany: nil))
            }
        }
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
    @inline(__always)
    func forEachObject(
        of entity: Int, _ body: (_ slot: Int, _ object: Object, _ occurrence: BatchOccurrence) throws -> Void
    ) rethrows {
        let objects = self.objects[entity]
        for (slot, object) in objects.enumerated() {
            if slot + 8 < objects.count { occurrence(objects[slot + 8]).prefetchHeader() }
            if slot + 4 < objects.count { occurrence(objects[slot + 4]).prefetchContents() }
            try body(slot, object, occurrence(object))
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
    func slot(entity: Int, id: Int32) -> Int? {
        slots[entity, id].map(Int.init)
    }

    var count: Int { objects.reduce(0) { $0 + $1.count } }

    mutating func removeAll() {
        for entity in objects.indices { objects[entity].removeAll(keepingCapacity: true) }
        runs.removeAll(keepingCapacity: true)
        slots.removeAll()
    }
}
