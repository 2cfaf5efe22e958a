/// Values by interned key ID, per entity, in arrays that grow as IDs appear: a lookup hashes
/// nothing. `removeAll` forgets every value at once by starting a new generation, so one instance
/// serves batch after batch without clearing its arrays.
struct ValuesByKeyID<Value> {
    private var values: [[Value?]]
    /// Per entity and ID: the generation the value was set in; a value of another is absent.
    private var generations: [[UInt32]]
    private var generation: UInt32 = 1

    init(entityCount: Int) {
        values = Array(repeating: [], count: entityCount)
        generations = Array(repeating: [], count: entityCount)
    }

    subscript(entity: Int, id: Int32) -> Value? {
        get {
            let index = Int(id)
            guard index >= 0, index < generations[entity].count, generations[entity][index] == generation else { return nil }
            return values[entity][index]
        }
        set {
            let index = Int(id)
            precondition(index >= 0, "a key without an ID: records must come through a RecordBatcher")
            if index >= generations[entity].count {
                let grown = Swift.max(index + 1, generations[entity].count * 2)
                values[entity].append(contentsOf: repeatElement(nil, count: grown - values[entity].count))
                generations[entity].append(contentsOf: repeatElement(0, count: grown - generations[entity].count))
            }
            values[entity][index] = newValue
            generations[entity][index] = newValue == nil ? 0 : generation
        }
    }

    mutating func removeAll() {
        generation &+= 1
        if generation == 0 {
            // After 2^32 generations the marks would repeat: start them over.
            for entity in generations.indices { generations[entity] = Array(repeating: 0, count: generations[entity].count) }
            generation = 1
        }
    }
}
