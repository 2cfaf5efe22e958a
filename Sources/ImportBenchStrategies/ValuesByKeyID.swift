import Foundation
import ImportBenchPayload

/// Values by interned key ID, per entity, in tables that grow as IDs appear: a lookup hashes
/// nothing. `removeAll` forgets every value at once by starting a new generation, so one instance
/// serves batch after batch without clearing its tables. The tables are plain memory it manages
/// (`PODArray`), one entry (value and generation) per ID: a lookup is one load, with no uniqueness
/// or exclusivity check as Swift's nested arrays made (bulk looks up every row's key and targets).
final class ValuesByKeyID<Value: BitwiseCopyable> {
    private struct Entry: BitwiseCopyable {
        var value: Value
        /// The generation the value was set in; a value of another, or 0, is absent.
        var generation: UInt32
    }

    private let entityCount: Int
    private let tables: UnsafeMutablePointer<PODArray<Entry>>
    private var generation: UInt32 = 1

    init(entityCount: Int) {
        self.entityCount = entityCount
        tables = .allocate(capacity: max(entityCount, 1))
        for entity in 0..<entityCount { (tables + entity).initialize(to: PODArray()) }
    }

    deinit {
        for entity in 0..<entityCount { tables[entity].free() }
        tables.deallocate()
    }

    subscript(entity: Int, id: Int32) -> Value? {
        @inline(__always) get {
            let index = Int(id)
            guard index >= 0, index < tables[entity].count else { return nil }
            let entry = tables[entity].base[index]
            return entry.generation == generation ? entry.value : nil
        }
        set {
            let index = Int(id)
            precondition(index >= 0, "a key without an ID: records must come through a RecordBatcher")
            if index >= tables[entity].count { grow(entity, toHold: index) }
            if let newValue {
                tables[entity].base[index] = Entry(value: newValue, generation: generation)
            } else {
                tables[entity].base[index].generation = 0
            }
        }
    }

    func removeAll() {
        generation &+= 1
        if generation == 0 {
            // After 2^32 generations the marks would repeat: start them over.
            for entity in 0..<entityCount { clear(tables[entity].base, count: tables[entity].count) }
            generation = 1
        }
    }

    @inline(never)
    private func grow(_ entity: Int, toHold index: Int) {
        let extra = max(index + 1, tables[entity].count * 2) - tables[entity].count
        clear(tables[entity].extend(by: extra), count: extra)
    }

    /// Marks `count` entries absent (generation 0), their values zero bytes.
    private func clear(_ entries: UnsafeMutablePointer<Entry>, count: Int) {
        memset(entries, 0, count * MemoryLayout<Entry>.stride)
    }
}
