import ImportBenchStore

/// The keys a record stream has met so far, per entity, plus those stored before it began: which
/// key-only references the `MissingReferencePolicy` leaves alone. A bit per key ID of `interner`;
/// changes made between `beginTentative()` and `rollback()` are undone, so a unit that must be read
/// again leaves no mark.
final class KnownKeys {
    let interner: KeyInterner
    let stored: StoredKeys?
    private var bits: [[UInt64]]
    private var tentative: [(entity: Int, id: Int32)] = []
    private var recording = false

    init(interner: KeyInterner, entityCount: Int, stored: StoredKeys?) {
        self.interner = interner
        self.stored = stored
        bits = Array(repeating: [], count: entityCount)
    }

    func contains(entity: Int, id: Int32) -> Bool {
        let word = Int(id) >> 6
        return id >= 0 && word < bits[entity].count && bits[entity][word] & (1 << UInt64(id & 63)) != 0
    }

    func insert(entity: Int, id: Int32) {
        guard id >= 0, !contains(entity: entity, id: id) else { return }
        let word = Int(id) >> 6
        if word >= bits[entity].count { bits[entity].append(contentsOf: repeatElement(0, count: word + 1 - bits[entity].count)) }
        bits[entity][word] |= 1 << UInt64(id & 63)
        if recording { tentative.append((entity, id)) }
    }

    /// Known by value: met earlier (its ID's bit) or stored before the import; a stored key found
    /// here is inserted, so it is looked up among the preload's once.
    func contains(entity: Int, key: StoreValue) -> Bool {
        if let id = interner.existingID(entity: entity, key: key), contains(entity: entity, id: id) { return true }
        guard stored?.contains(entity: entity, key: key) == true else { return false }
        insert(entity: entity, key: key)
        return true
    }

    func insert(entity: Int, key: StoreValue) {
        insert(entity: entity, id: interner.id(entity: entity, key: key))
    }

    func beginTentative() {
        tentative.removeAll(keepingCapacity: true)
        recording = true
    }

    func commit() {
        recording = false
        tentative.removeAll(keepingCapacity: true)
    }

    func rollback() {
        recording = false
        for (entity, id) in tentative { bits[entity][Int(id) >> 6] &= ~(1 << UInt64(id & 63)) }
        tentative.removeAll(keepingCapacity: true)
    }
}
