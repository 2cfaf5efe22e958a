import ImportBenchStore

/// Deletes what a refresh's payload no longer lists: the stored children of every parent the payload
/// lists them for (where it lists them all) and the stored set members of every object it lists
/// them for, that this import did not write. One DELETE per such relationship, after the last batch,
/// with no fetch and no key held in memory: rows this import wrote carry its generation, objects it
/// listed the children of carry it in `Schema.listedColumn` (a quoted copy lists none).
struct RefreshSweep {
    private let deletes: [Statement]

    init(context: StrategyContext) throws {
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
        deletes = try sql.map { try context.store.prepare($0) }
    }

    func run() throws {
        for statement in deletes { try statement.execute() }
    }
}
