import ImportBench

/// A batch's objects, each once, as the strategies that write an object once per batch see them:
/// entity by entity in the schema's order (targets before the objects that point at them) and,
/// within an entity, in the order first named. The last occurrence's values win, the children
/// count as listed if any occurrence lists them, and sets are united.
struct BatchObjects {
    struct Object {
        var occurrence: BatchOccurrence
        var listsChildren: Bool
        /// Per set, the members' keys, each once, in payload order.
        var members: [[String]]
    }

    private(set) var byEntity: [[Object]]

    init(_ batch: RecordBatch, entityCount: Int) {
        byEntity = Array(repeating: [], count: entityCount)
        var position: [[String: Int]] = Array(repeating: [:], count: entityCount)
        var seenMembers: [[String: [Set<String>]]] = Array(repeating: [:], count: entityCount)
        for occurrence in batch.occurrences {
            let entity = occurrence.entity
            let key = occurrence.key.string ?? ""
            let sets = occurrence.manyToMany.map { members in members.map { $0.key.string ?? "" } }
            var seen = seenMembers[entity][key] ?? sets.map { _ in [] }
            if let at = position[entity][key] {
                byEntity[entity][at].occurrence = occurrence
                byEntity[entity][at].listsChildren = byEntity[entity][at].listsChildren || occurrence.listsChildren
            } else {
                position[entity][key] = byEntity[entity].count
                byEntity[entity].append(Object(occurrence: occurrence, listsChildren: occurrence.listsChildren, members: sets.map { _ in [] }))
            }
            let at = position[entity][key] ?? 0
            for (set, keys) in sets.enumerated() {
                for member in keys where seen[set].insert(member).inserted { byEntity[entity][at].members[set].append(member) }
            }
            seenMembers[entity][key] = seen
        }
    }
}
