import ImportBenchStore

/// The distinct objects of a run of occurrences, per entity, in order of first appearance.
/// The last occurrence wins for attributes and to-one relationships; many-to-many sets are unioned.
struct UniqueObjects {
    struct Object {
        var occurrence: RecordOccurrence
        /// Target keys per many-to-many relationship, each distinct, in order of first appearance.
        var manyToManyKeys: [[DatabaseValue]]
    }

    private(set) var objects: [[Object]]
    private var slots: [[DatabaseValue: Int]]

    init(entityCount: Int) {
        objects = Array(repeating: [], count: entityCount)
        slots = Array(repeating: [:], count: entityCount)
    }

    init(entityCount: Int, occurrences: [RecordOccurrence]) {
        self.init(entityCount: entityCount)
        for occurrence in occurrences { add(occurrence) }
    }

    mutating func add(_ occurrence: RecordOccurrence) {
        let entity = occurrence.entity
        if let slot = slots[entity][occurrence.key] {
            objects[entity][slot].occurrence = occurrence
            for (relationship, references) in occurrence.manyToMany.enumerated() {
                for reference in references where !objects[entity][slot].manyToManyKeys[relationship].contains(reference.key) {
                    objects[entity][slot].manyToManyKeys[relationship].append(reference.key)
                }
            }
        } else {
            slots[entity][occurrence.key] = objects[entity].count
            let keys = occurrence.manyToMany.map { references in
                var distinct: [DatabaseValue] = []
                for reference in references where !distinct.contains(reference.key) { distinct.append(reference.key) }
                return distinct
            }
            objects[entity].append(Object(occurrence: occurrence, manyToManyKeys: keys))
        }
    }

    /// Position of an object among its entity's unique objects.
    func slot(entity: Int, key: DatabaseValue) -> Int? { slots[entity][key] }

    var count: Int { objects.reduce(0) { $0 + $1.count } }

    mutating func removeAll() {
        for entity in objects.indices {
            objects[entity].removeAll(keepingCapacity: true)
            slots[entity].removeAll(keepingCapacity: true)
        }
    }
}
