import ImportBenchStore

/// The keys a store holds before the measured import: those of the preload, read through the same
/// policy. Worked out from the preload's records rather than the store, so a resumed import, whose
/// store already holds later keys, decides every missing reference as the first attempt did.
package final class StoredKeys {
    private let interner: KeyInterner

    /// Reads `reader` to its end; only the keys are kept.
    package init(reading reader: any RecordReader, entityCount: Int) throws {
        interner = KeyInterner(entityCount: entityCount)
        while let unit = try reader.nextUnit() {
            for occurrence in unit.occurrences { _ = interner.id(entity: occurrence.entity, key: occurrence.key) }
        }
    }

    package func contains(entity: Int, key: StoreValue) -> Bool {
        interner.existingID(entity: entity, key: key) != nil
    }

    func contains(entity: Int, tag: StoredValue.Tag, bytes: UnsafeRawBufferPointer) -> Bool {
        interner.existingID(entity: entity, tag: tag, bytes: bytes) >= 0
    }
}
