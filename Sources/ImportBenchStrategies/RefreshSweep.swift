import ImportBenchSchema
import ImportBenchStore

/// Deletes what a refresh's payload no longer lists: the stored children of every parent the payload
/// lists them for (where it lists them all) and the stored set members of every object it lists
/// them for, that this import did not write. One DELETE per such relationship, after the last batch,
/// with no fetch and no key held in memory: rows this import wrote carry its generation, objects it
/// listed the children of carry it in `Schema.listedColumn` (a quoted copy lists none).
///
/// A strategy runs it once, after the last batch of its last pass (`finishPass`): on bench's
/// connection with `run`, or on a connection of its own with the SQL of `statements(for:)`.
public struct RefreshSweep {
    private let deletes: [StoreStatement]

    /// Prepares the sweep's DELETEs on the context's store.
    public init(context: StrategyContext) throws {
        deletes = try Self.statements(for: context).map { try context.store.prepare($0) }
    }

    /// The sweep's DELETEs, in order: for a strategy that runs them on a connection of its own.
    public static func statements(for context: StrategyContext) -> [String] {
        let schema = context.schema
        let generation = Schema.generationColumn
        let listed = Schema.listedColumn
        let current = context.generation
        var sql: [String] = []
        for (entityIndex, entity) in schema.entities.enumerated() {
            for (index, relationship) in entity.toOne.enumerated() where relationship.replacesChildren {
                let parent = schema.entities[schema.toOneTargets[entityIndex][index]]
                sql.append(
                    "DELETE FROM \(entity.table) WHERE \(generation) <> \(current) AND \(quoted(relationship.column)) IN "
                        + "(SELECT pk FROM \(parent.table) WHERE \(listed) = \(current))")
            }
            for relationship in entity.manyToMany where relationship.listing == .complete {
                sql.append(
                    "DELETE FROM \(quoted(entity.joinTable(relationship))) WHERE \(generation) <> \(current) AND source_pk IN "
                        + "(SELECT pk FROM \(entity.table) WHERE \(listed) = \(current))")
            }
        }
        return sql
    }

    /// Runs the DELETEs on the context's store, inside the caller's transaction.
    public func run() throws {
        for statement in deletes { try statement.execute() }
    }
}
