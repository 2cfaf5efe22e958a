import ImportBenchSchema

/// What an object write binds for `Schema.listedColumn`: the import's generation when the object
/// lists its children and set members, 0 when it is a copy that lists none (the column keeps the
/// largest), nothing for an entity without the column. The refresh sweep removes stored children
/// and pairs only under rows stamped with this import's generation.
public struct ListingStamp: Sendable {
    private let generation: Int64
    private let tracked: [Bool]

    /// Reads the import's generation and which entities carry the column.
    public init(context: StrategyContext) {
        generation = context.generation
        tracked = context.schema.tracksListing
    }

    /// The value to write in `Schema.listedColumn` for an occurrence of `entity` (`occurrence.entity`,
    /// `occurrence.listsChildren`); nil when the entity's table has no such column. On an update,
    /// keep the larger of the stored value and this one.
    public func value(entity: EntityID, listsChildren: Bool) -> Int64? {
        value(entityIndex: entity.index, listsChildren: listsChildren)
    }

    /// `value(entity:listsChildren:)` by the entity's index, for bench's own loops over `schema.entities`.
    @inline(__always)
    package func value(entityIndex entity: Int, listsChildren: Bool) -> Int64? {
        tracked[entity] ? (listsChildren ? generation : 0) : nil
    }
}
