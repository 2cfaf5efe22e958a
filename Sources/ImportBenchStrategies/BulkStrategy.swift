import ImportBenchPayload
import ImportBenchSchema
import ImportBenchStore

/// A first import as SQLite loads fastest, in a shape an app can ship: per batch, each object once
/// (last occurrence wins, a partial one merged over an earlier one); new objects get their pks up
/// front and go in several to an INSERT (the ceiling's `rowsPerInsert`), in pk order; objects already written are updated by pk; every
/// reference comes from a key -> pk map kept for the import (O(distinct keys)). On an empty store
/// every index, uniqueness included, is dropped before the first batch and built after the last,
/// one sorted pass each. A store that is not empty keeps its indexes and reads its keys once (the
/// refresh falls back to indexed writes); the verifier holds every store to the schema's indexes,
/// so one left without them never passes.
package final class BulkStrategy: ImportStrategy, FallbackReporting {
    package static let name = "bulk"
    package static let summary =
        "first import: objects once per batch, new ones \(CeilingStrategy.rowsPerInsert) rows to an INSERT in pk order, "
        + "indexes dropped before the first batch and built after the last"

    private let schema: Schema
    private let store: StoreConnection
    private let interner: KeyInterner
    private let insert: [MultiRowInsert]
    private let insertPairs: [[MultiRowInsert]]
    private let update: StatementsByAbsence
    private let sweep: RefreshSweep
    private let listing: ListingStamp
    private let unique: UniqueObjects
    /// Every key this import met or found stored, with its pk, for the whole import.
    @exclusivity(unchecked) private var known: KnownPKs
    /// Per entity, the pk the next new object gets.
    @exclusivity(unchecked) private var nextPK: [Int64]
    /// One set's pairs (source pk, target pk) of a batch, sorted into the join table's key order.
    @exclusivity(unchecked) private var pairs: [(source: Int64, target: Int64)] = []
    /// Whether the store's state (stored keys, indexes) has been read.
    private var started = false
    /// Whether the indexes are dropped, to be built after the last batch.
    private var indexesDropped = false
    /// Whether the store held rows of its own (not of a resumed bulk import), so the indexes stayed.
    private var keptIndexes = false
    /// Whether the store held no row when this import (not a resumed one) began.
    private var startedEmpty = false

    package init(context: StrategyContext) throws {
        let schema = context.schema
        let store = context.store
        let generation = context.generation
        self.schema = schema
        self.store = store
        interner = context.interner
        insert = try schema.entities.map { entity in
            try MultiRowInsert(store: store, width: entity.objectWithPKWidth(in: schema), rowsPerInsert: CeilingStrategy.rowsPerInsert) {
                entity.insertObjectsWithPKSQL(in: schema, generation: generation, rows: $0)
            }
        }
        insertPairs = try schema.entities.map { entity in
            try entity.manyToMany.map { relationship in
                try MultiRowInsert(store: store, width: 2, rowsPerInsert: CeilingStrategy.rowsPerInsert) {
                    entity.insertJoinPairsSQL(relationship, generation: generation, rows: $0)
                }
            }
        }
        update = try StatementsByAbsence(store: store, entityCount: schema.entities.count) { entity, absent in
            schema.entities[entity].updateObjectSQL(in: schema, generation: generation, absent: absent)
        }
        sweep = try RefreshSweep(context: context)
        listing = ListingStamp(context: context)
        unique = UniqueObjects(entityCount: schema.entities.count)
        known = KnownPKs(entityCount: schema.entities.count)
        nextPK = Array(repeating: 1, count: schema.entities.count)
    }

    package func write(_ batch: RecordBatch, pass: Int) throws {
        if !started { try start(resuming: false) }
        unique.collect(batch)
        for entity in schema.entities.indices {
            let firstNew = assignPKs(of: entity)
            try insertNew(of: entity, from: firstNew)
            try updateWritten(of: entity, before: firstNew)
            for relationship in schema.entities[entity].manyToMany.indices {
                try writePairs(of: entity, relationship: relationship)
            }
        }
    }

    /// Builds the indexes dropped before the first batch, then removes what a refresh no longer lists.
    package func finishPass(_ pass: Int) throws {
        if !started { try start(resuming: false) }
        if indexesDropped {
            for statement in schema.indexDDL { try store.execute(statement) }
            indexesDropped = false
        }
        // On a store that was empty every row carries this import's generation: the sweep would
        // delete nothing, and its DELETEs would walk every child table to find so.
        if !startedEmpty { try sweep.run() }
    }

    /// "indexes kept" when the store held rows and the import wrote through its indexes.
    package var fallback: String? { keptIndexes ? "indexes kept" : nil }

    /// A resumed import reads the keys and pks its committed batches stored, and whether they left
    /// the indexes dropped.
    package func resume(atPass pass: Int) throws {
        try start(resuming: true)
    }
}

extension BulkStrategy {
    /// Reads what the store holds: on an empty store (one fetch) the indexes are dropped; a store
    /// that holds rows has its keys read into the map (one fetch per entity), and keeps its indexes
    /// unless a resumed bulk import had dropped them.
    private func start(resuming: Bool) throws {
        started = true
        known.removeAll()
        nextPK = Array(repeating: 1, count: schema.entities.count)
        let tables = schema.entities.map { "EXISTS (SELECT 1 FROM \($0.table))" }.joined(separator: " OR ")
        let holdsRows = try store.prepare("SELECT \(tables)").scalarInt64() == 1
        if holdsRows { try readStoredKeys() }
        startedEmpty = !holdsRows && !resuming
        let missing = resuming ? try missingIndexes() : 0
        if !holdsRows || missing > 0 {
            let ifExists = missing > 0 ? "IF EXISTS " : ""
            for index in schema.indexNames { try store.execute("DROP INDEX \(ifExists)\(quoted(index))") }
            indexesDropped = true
        }
        keptIndexes = !indexesDropped
    }

    private func readStoredKeys() throws {
        for (entity, description) in schema.entities.enumerated() {
            let statement = try store.prepare(description.selectAllPKsSQL)
            defer { statement.reset() }
            while try statement.step() {
                let pk = statement.int64(at: 1)
                known[entity, interner.id(entity: entity, key: statement.value(at: 0))] = pk
                nextPK[entity] = max(nextPK[entity], pk + 1)
            }
        }
    }

    /// How many of the schema's indexes the store lacks.
    private func missingIndexes() throws -> Int {
        let names = schema.indexNames.map { "'\($0.replacingOccurrences(of: "'", with: "''"))'" }.joined(separator: ", ")
        let present = try store.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name IN (\(names))").scalarInt64()
        return schema.indexNames.count - Int(present ?? 0)
    }

    /// Gives each object of the batch not written yet its pk, in order, before any row is bound, so
    /// a reference to an object later in the same entity resolves too. Returns the first pk given:
    /// the batch's new objects are those from it on.
    private func assignPKs(of entity: Int) -> Int64 {
        let first = nextPK[entity]
        unique.forEachObject(of: entity) { _, _, occurrence in
            guard known[entity, occurrence.keyID] == nil else { return }
            known[entity, occurrence.keyID] = nextPK[entity]
            nextPK[entity] += 1
        }
        return first
    }

    /// The new objects, in pk order, several rows to an INSERT.
    private func insertNew(of entity: Int, from firstNew: Int64) throws {
        let count = Int(nextPK[entity] - firstNew)
        guard count > 0 else { return }
        let insert = self.insert[entity]
        insert.begin(rows: count)
        try unique.forEachObject(of: entity) { _, object, occurrence in
            guard let pk = known[entity, occurrence.keyID], pk >= firstNew else { return }
            let (statement, first) = try insert.nextRow()
            statement.bind(pk, at: first)
            let afterAttributes = statement.bindObject(occurrence, foreignKeys: [], from: first + 1)
            let index = try known.bindForeignKeys(of: occurrence, in: schema, to: statement, from: afterAttributes)
            statement.bindListed(listing.value(entityIndex: entity, listsChildren: object.listsChildren), at: index)
            try insert.rowBound()
        }
    }

    /// The objects an earlier batch wrote (or the store held), updated by pk with the members this
    /// batch gives; after the new rows, so a reference to one of them finds its row.
    private func updateWritten(of entity: Int, before firstNew: Int64) throws {
        try unique.forEachObject(of: entity) { _, object, occurrence in
            guard let pk = known[entity, occurrence.keyID], pk < firstNew else { return }
            guard let statement = try update.statement(for: occurrence) else { return }
            let foreignKeys = try known.foreignKeys(of: occurrence, in: schema)
            statement.bindUpdate(
                occurrence, foreignKeys: foreignKeys, listed: listing.value(entityIndex: entity, listsChildren: object.listsChildren), pk: pk)
            try statement.execute()
        }
    }

    /// The batch's pairs of one set, new and stamped again alike, in the join table's key order,
    /// several to an INSERT; a pair already stored is only stamped with this import.
    private func writePairs(of entity: Int, relationship: Int) throws {
        let target = schema.manyToManyTargets[entity][relationship]
        pairs.removeAll(keepingCapacity: true)
        try unique.forEachObject(of: entity) { _, object, occurrence in
            guard !occurrence.manyToMany.isEmpty, let source = known[entity, occurrence.keyID] else { return }
            for reference in unique.manyToMany(object)[relationship] {
                guard let targetPK = known[target, reference.keyID] else {
                    throw StrategyError.dangling(occurrence, manyToMany: relationship, targetKey: reference.key, in: schema)
                }
                pairs.append((source, targetPK))
            }
        }
        try insertPairs[entity][relationship].writePairs(&pairs)
    }
}
