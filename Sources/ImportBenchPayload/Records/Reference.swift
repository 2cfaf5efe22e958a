import ImportBenchStore

/// A relationship as the payload gives it: always the target's natural key, and, when the target
/// object was embedded in the payload, the ordinal of that occurrence.
package struct Reference: Sendable, Hashable {
    package var key: StoreValue
    /// Readers fill in the index within the unit; the batcher turns it into a stream ordinal.
    /// nil for a reference given by key only (a `channel_id`, a GTFS `stop_id`).
    package var embeddedOrdinal: Int?
    /// The target key's ID in the import's `KeyInterner`, set by the batcher; -1 before. Not part
    /// of the reference's identity: two references to one key are equal, interned or not.
    package var keyID: Int32 = -1

    package init(key: StoreValue, embeddedOrdinal: Int? = nil) {
        self.key = key
        self.embeddedOrdinal = embeddedOrdinal
    }

    package static func embedded(_ key: StoreValue, at index: Int) -> Reference {
        Reference(key: key, embeddedOrdinal: index)
    }

    package static func keyOnly(_ key: StoreValue) -> Reference {
        Reference(key: key, embeddedOrdinal: nil)
    }

    package var isKeyOnly: Bool { embeddedOrdinal == nil }

    package static func == (lhs: Reference, rhs: Reference) -> Bool {
        lhs.key == rhs.key && lhs.embeddedOrdinal == rhs.embeddedOrdinal
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(embeddedOrdinal)
    }
}
