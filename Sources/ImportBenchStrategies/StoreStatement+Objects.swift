import ImportBenchPayload
import ImportBenchStore

extension StoreStatement {
    /// Binds key, attributes and foreign keys from parameter `start` on; returns the next free index.
    @discardableResult
    func bindObject(_ occurrence: BatchOccurrence, foreignKeys: [Int64?], from start: Int32 = 1) -> Int32 {
        var index = start
        bind(occurrence.key, at: index)
        index += 1
        for value in occurrence.attributes {
            bind(value, at: index)
            index += 1
        }
        index = bindForeignKeys(foreignKeys, from: index)
        return index
    }

    /// Binds attributes, then foreign keys, then the listing mark (if the entity has one), then the
    /// pk: the parameter order of the UPDATE statements.
    func bindUpdate(_ occurrence: BatchOccurrence, foreignKeys: [Int64?], listed: Int64?, pk: Int64) {
        var index: Int32 = 1
        for value in occurrence.attributes {
            bind(value, at: index)
            index += 1
        }
        index = bindForeignKeys(foreignKeys, from: index)
        index = bindListed(listed, at: index)
        bind(pk, at: index)
    }

    /// Binds the listing mark where the entity has one (`ListingStamp`); returns the next free index.
    @discardableResult
    func bindListed(_ listed: Int64?, at index: Int32) -> Int32 {
        guard let listed else { return index }
        bind(listed, at: index)
        return index + 1
    }

    @discardableResult
    func bindForeignKeys(_ foreignKeys: [Int64?], from start: Int32) -> Int32 {
        var index = start
        for foreignKey in foreignKeys {
            if let foreignKey { bind(foreignKey, at: index) } else { bindNull(at: index) }
            index += 1
        }
        return index
    }
}
