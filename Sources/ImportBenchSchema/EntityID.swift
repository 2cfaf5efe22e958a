/// An entity of a schema by its position in `Schema.entities` (dependency order): what a batch's
/// occurrence names and a relationship targets, typed so that it cannot be taken for a
/// relationship's or a column's position, as a bare integer could.
@frozen
public struct EntityID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Its position in `Schema.entities`: for a strategy that keeps per-entity state in an array.
    public let index: Int

    @inlinable package init(_ index: Int) {
        self.index = index
    }

    /// Earlier in dependency order first.
    public static func < (left: EntityID, right: EntityID) -> Bool { left.index < right.index }

    /// `entity #2`, for a message.
    public var description: String { "entity #\(index)" }
}
