import ImportBenchSchema
import ImportBenchStore

/// One object as met in the payload, in document order; repeats are kept.
/// The same user embedded in 500 messages is 500 occurrences.
package struct RecordOccurrence: Sendable {
    /// Index of the entity in the schema.
    package var entity: Int
    package var key: StoreValue
    /// Values in the order of the entity's `attributes`.
    package var attributes: [StoreValue]
    /// In the order of the entity's `toOne`; nil is a NULL relationship, or one in `absent`.
    package var toOne: [Reference?]
    /// In the order of the entity's `manyToMany`.
    package var manyToMany: [[Reference]]
    /// Position in the whole stream, set by the batcher.
    package var ordinal: Int = 0
    /// Index of the top-level payload element (a chat channel) this occurrence came from, set by the batcher.
    package var unit: Int = 0
    /// The key's ID in the import's `KeyInterner`, set by the batcher; -1 before.
    package var keyID: Int32 = -1
    /// False for a copy that lists none of its object's children or set members (an embedded
    /// quoted message): a refresh keeps what was stored for them.
    package var listsChildren = true
    /// The attributes and to-one relationships the payload left out (their values read NULL here):
    /// an update keeps what the store holds for them.
    package var absent = ColumnSet()

    package init(
        entity: Int,
        key: StoreValue,
        attributes: [StoreValue],
        toOne: [Reference?] = [],
        manyToMany: [[Reference]] = []
    ) {
        self.entity = entity
        self.key = key
        self.attributes = attributes
        self.toOne = toOne
        self.manyToMany = manyToMany
    }
}

/// The occurrences of one top-level payload element, dependencies first: an embedded object
/// precedes the object that refers to it, and an owner precedes its children.
package struct RecordUnit: Sendable {
    package var occurrences: [RecordOccurrence]
    /// Where the element sits in the payload, for messages (`channels[3]`).
    package var path: String
    /// Byte offset of the element in the payload file.
    package var byteOffset: Int

    package init(occurrences: [RecordOccurrence], path: String, byteOffset: Int) {
        self.occurrences = occurrences
        self.path = path
        self.byteOffset = byteOffset
    }
}
