// swift-format-ignore-file
import ImportBench

/// One upsert per occurrence on bench's connection, references resolved by key inside the statement, what an
/// occurrence leaves out kept (RFC 7396), set pairs stamped; the refresh sweep after the last batch.
final class OneUpsertStrategy: ImportStrategy {
    static let name = "one-upsert"
    static let summary = "an upsert per occurrence, references resolved by key inside the statement"

    private let upserts: [StoreStatement], pairs: [[StoreStatement]], listing: ListingStamp, sweep: RefreshSweep

    init(context: StrategyContext) throws {
        let schema = context.schema, stamp = "\(context.generation)", generation = Schema.generationColumn
        func q(_ name: String) -> String { "\"\(name)\"" }
        func pk(_ entity: Entity) -> String { "(SELECT pk FROM \(q(entity.name)) WHERE \(q(entity.key.name)) = ?)" }
        upserts = try schema.entities.map { entity in
            let targets = entity.toOne.map { schema[schema.target(of: $0)] }, listed = schema.hasListedColumn(entity) ? [Schema.listedColumn] : []
            let columns = ([entity.key.name] + entity.attributes.map(\.name) + entity.toOne.map(\.column) + listed).map(q)
            let values = Array(repeating: "?", count: 1 + entity.attributes.count) + targets.map(pk) + listed.map { _ in "?" }
            let updates = columns.dropFirst().enumerated().map { offset, column in // kept where its flag, bound after the values, is 0
                column == q(Schema.listedColumn) ? "\(column) = max(\(column), excluded.\(column))" : "\(column) = iif(?\(columns.count + 1 + offset), excluded.\(column), \(column))"
            }
            return try context.store.prepare(
                "INSERT INTO \(q(entity.name)) (\(columns.joined(separator: ", ")), \(generation)) VALUES (\(values.joined(separator: ", ")), "
                    + "\(stamp)) ON CONFLICT(\(q(entity.key.name))) DO UPDATE SET \((updates + ["\(generation) = \(stamp)"]).joined(separator: ", "))")
        }
        pairs = try schema.entities.map { entity in
            try entity.manyToMany.map { relationship in
                let target = schema[schema.target(of: relationship)]
                return try context.store.prepare(
                    "INSERT INTO \(q(entity.joinTable(relationship))) (source_pk, target_pk, \(generation)) VALUES (\(pk(entity)), "
                        + "\(pk(target)), \(stamp)) ON CONFLICT DO UPDATE SET \(generation) = \(stamp)")
            }
        }
        (listing, sweep) = (ListingStamp(context: context), try RefreshSweep(context: context))
    }

    func write(_ batch: RecordBatch, pass: Int) throws {
        for occurrence in batch.occurrences {
            let upsert = upserts[occurrence.entity.index]
            let listed = listing.value(entity: occurrence.entity, listsChildren: occurrence.listsChildren)
            let values = [occurrence.key] + occurrence.attributes + occurrence.toOne.map { $0?.key ?? .null } + (listed.map { [.integer($0)] } ?? [])
            let given: [Int64] = occurrence.attributes.map { (value: RecordValue) -> Int64 in if case .absent = value { 0 } else { 1 } }
                + occurrence.toOne.indices.map { occurrence.toOne.isAbsent(at: $0) ? 0 : 1 }
            for (index, value) in (values + given.map(RecordValue.integer)).enumerated() { upsert.bind(value, at: Int32(index + 1)) }
            try upsert.execute()
            for (set, members) in occurrence.manyToMany.enumerated() {
                for member in members {
                    pairs[occurrence.entity.index][set].bind(occurrence.key, at: 1)
                    pairs[occurrence.entity.index][set].bind(member.key, at: 2)
                    try pairs[occurrence.entity.index][set].execute()
                }
            }
        }
    }

    func finishPass(_ pass: Int) throws { try sweep.run() }
}
