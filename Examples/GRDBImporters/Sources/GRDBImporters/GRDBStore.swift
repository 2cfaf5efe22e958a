import GRDB
import ImportBench

/// What every GRDB strategy shares: its own `DatabaseQueue` on bench's store, a record table per
/// entity, the set pairs' statements, the import's stamp and the refresh sweep.
final class GRDBStore {
    let queue: DatabaseQueue
    let schema: Schema
    let tables: [RecordTable]
    let stamp: ImportStamp
    /// Per entity (by `EntityID.index`), the entity each to-one relationship targets.
    let referenceTargets: [[EntityID]]
    /// Per entity, the entity each many-to-many relationship's members belong to.
    let setTargets: [[EntityID]]
    private let pairSQL: [[String]]
    private let sweepSQL: [String]

    init(context: StrategyContext) throws {
        let schema = context.schema
        self.schema = schema
        referenceTargets = schema.entities.map { $0.toOne.map(schema.target(of:)) }
        setTargets = schema.entities.map { $0.manyToMany.map(schema.target(of:)) }
        tables = try RecordTables.tables(for: context.schema)
        stamp = ImportStamp(context: context)
        sweepSQL = RefreshSweep.statements(for: context)
        pairSQL = context.schema.entities.map { entity in
            // GRDB's record upsert returns the rowid, which a WITHOUT ROWID join table has not: the
            // pair is written as SQL, which bench's schema gives with the import's stamp.
            entity.manyToMany.map { entity.insertJoinSQL($0, generation: context.generation) }
        }
        var configuration = Configuration()
        let settings = context.connectionSettings
        configuration.prepareDatabase { db in
            for statement in settings { try db.execute(sql: statement) }
        }
        queue = try DatabaseQueue(path: context.store.path, configuration: configuration)
        let tables = tables
        try queue.inDatabase { db in
            for table in tables { try table.warm(db) }
        }
    }

    deinit {
        try? queue.close()
    }

    /// Writes one batch in one transaction of its own (`DatabaseQueue.write`), committed on
    /// return and rolled back if `body` throws.
    func write(_ body: (Database) throws -> Void) throws {
        try queue.write { db in try body(db) }
    }

    /// Deletes what the payload no longer lists (`RefreshSweep`), in a transaction of its own.
    func sweep() throws {
        let sweepSQL = sweepSQL
        try queue.write { db in
            for statement in sweepSQL { try db.execute(sql: statement) }
        }
    }

    /// Adds the pair (source, target) to set `relationship` of `entity`, stamped with this import.
    func addPair(_ db: Database, entity: Int, relationship: Int, source: Int64, target: Int64) throws {
        try db.cachedStatement(sql: pairSQL[entity][relationship]).execute(arguments: [source, target])
    }

    /// The pks of `occurrence`'s to-one targets, each from `resolve(reference, target entity)`.
    func foreignKeys(of occurrence: BatchOccurrence, _ resolve: (BatchReference, EntityID) throws -> Int64) throws -> [Int64?] {
        let targets = referenceTargets[occurrence.entity.index]
        return try occurrence.toOne.enumerated().map { index, reference in
            try reference.map { try resolve($0, targets[index]) }
        }
    }
}

/// Why a GRDB strategy cannot start. (A dangling reference is bench's own error:
/// `Schema.danglingReference(from:to:key:)`.)
enum GRDBImportError: Error, CustomStringConvertible {
    /// The payload's schema is none of those this example has records for, or differs from them.
    case unknownSchema(String)

    var description: String {
        switch self {
        case .unknownSchema(let problem):
            return problem
        }
    }
}
