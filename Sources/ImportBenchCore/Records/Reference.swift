import ImportBenchStore

/// A relationship as the payload gives it: always the target's natural key, and, when the target
/// object was embedded in the payload, the ordinal of that occurrence.
public struct Reference: Sendable, Hashable {
    public var key: DatabaseValue
    /// Readers fill in the index within the unit; the batcher turns it into a stream ordinal.
    /// nil for a reference given by key only (a `channel_id`, a GTFS `stop_id`).
    public var embeddedOrdinal: Int?
    /// The target key's ID in the import's `KeyInterner`, set by the batcher; -1 before. Not part
    /// of the reference's identity: two references to one key are equal, interned or not.
    public var keyID: Int32 = -1

    public init(key: DatabaseValue, embeddedOrdinal: Int? = nil) {
        self.key = key
        self.embeddedOrdinal = embeddedOrdinal
    }

    public static func embedded(_ key: DatabaseValue, at index: Int) -> Reference {
        Reference(key: key, embeddedOrdinal: index)
    }

    public static func keyOnly(_ key: DatabaseValue) -> Reference {
        Reference(key: key, embeddedOrdinal: nil)
    }

    public var isKeyOnly: Bool { embeddedOrdinal == nil }

    public static func == (lhs: Reference, rhs: Reference) -> Bool {
        lhs.key == rhs.key && lhs.embeddedOrdinal == rhs.embeddedOrdinal
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(embeddedOrdinal)
    }
}
