/// What an object write binds for `Schema.listedColumn`: the import's generation when the object
/// lists its children and set members, 0 when it is a copy that lists none (the column keeps the
/// largest), nothing for an entity without the column. The refresh sweep removes stored children
/// and pairs only under rows stamped with this import's generation.
struct ListingStamp {
    private let generation: Int64
    private let tracked: [Bool]

    init(context: StrategyContext) {
        generation = context.generation
        tracked = context.schema.tracksListing
    }

    @inline(__always)
    func value(entity: Int, listsChildren: Bool) -> Int64? {
        tracked[entity] ? (listsChildren ? generation : 0) : nil
    }
}
