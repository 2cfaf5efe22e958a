import ImportBench

/// A batch's objects, each once, as the strategies that write an object once per batch see them:
/// entity by entity in the schema's order (targets before the objects that point at them) and,
/// within an entity, in the order first named. The children count as listed if any occurrence
/// lists them, and sets are united.
///
/// Absent is not null (JSON Merge Patch, RFC 7396): an occurrence that leaves members out (a user
/// named by id and name alone) changes only the members it gives. So an object keeps its last whole
/// occurrence, which settles every member, and the partial occurrences after it, which a strategy
/// writes over it in payload order; a member a later one leaves out keeps the earlier value. A
/// whole object, the common case, has no partial occurrence and is written once, as before.
struct BatchObjects {
    struct Object {
        /// The last occurrence that gives every member, or the first one if none after it does.
        var occurrence: BatchOccurrence
        /// The partial occurrences after `occurrence`, in payload order; empty for a whole object.
        var partials: [BatchOccurrence] = []
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
            let entity = occurrence.entity.index
            let key = occurrence.key.string ?? ""
            let sets = occurrence.manyToMany.map { members in members.map { $0.key.string ?? "" } }
            var seen = seenMembers[entity][key] ?? sets.map { _ in [] }
            if let at = position[entity][key] {
                if occurrence.isPartial {
                    byEntity[entity][at].partials.append(occurrence)
                } else {
                    // A whole occurrence gives every member: what came before it no longer shows.
                    byEntity[entity][at].occurrence = occurrence
                    byEntity[entity][at].partials.removeAll()
                }
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
