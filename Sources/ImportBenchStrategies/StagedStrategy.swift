import ImportBenchPayload
import ImportBenchSchema
import ImportBenchStore

/// A set-based refresh. Per batch, per entity in dependency order: the unique objects go into a TEMP
/// stage table with multi-row `INSERT ... VALUES`, then one `INSERT ... SELECT ... ON CONFLICT DO
/// UPDATE` per set of absent columns (most batches have one) writes them all, references resolved
/// by joins on natural keys; a self-reference is set by one `UPDATE ... FROM` the stage after; each
/// many-to-many set is staged and written likewise. No fetch on the happy path: a dangling
/// reference fails a constraint, and only then does one SELECT find which. The refresh sweep runs
/// after the last batch, as in every strategy. Everything runs on bench's counted connection.
package final class StagedStrategy: ImportStrategy {
    /// Its name on the command line and in results.
    package static let name = "staged"
    /// One line for `bench list` and `--help`.
    package static let summary =
        "per batch, rows into TEMP tables by multi-row INSERTs, then one INSERT ... SELECT ... ON CONFLICT DO UPDATE per entity, keys joined in SQL; no fetches"

    /// Rows per staging INSERT at most: more saves little once a statement's overhead is spread thin.
    static let maximumRowsPerStatement = 100

    /// The entities, in dependency order.
    private let schema: Schema
    /// bench's counted connection: the TEMP tables live on it, so every statement is counted.
    private let store: StoreConnection
    /// Per entity: its SQL.
    private let sql: [StagedSQL]
    /// Per entity: its stage's rows.
    private let objects: [StagedRows]
    /// Per entity and many-to-many relationship: its pairs' rows.
    private let pairs: [[StagedRows]]
    /// Per entity and many-to-many relationship: the pairs' INSERT ... SELECT.
    private let joins: [[StoreStatement]]
    /// Per entity and set of absent columns: the INSERT ... SELECT, prepared when first needed.
    private var upserts: [[ColumnSet: StoreStatement]]
    /// Per entity and set of absent columns: the self-references' UPDATE (nil: none to set).
    private var selfUpdates: [[ColumnSet: StoreStatement?]]
    /// The batch's unique objects: last occurrence wins, partial ones merged, sets unioned.
    private let unique: UniqueObjects
    /// What each object writes in the listing column, for the refresh sweep.
    private let listing: ListingStamp
    /// Removes, after the last batch, the children and pairs a refresh no longer lists.
    private let sweep: RefreshSweep
    /// The current entity's sets of absent columns in the batch, a group number each (its position).
    private var groups: [ColumnSet] = []
    /// The last absent-column bits met and their group: most objects share a shape, found without a search.
    private var lastBits: UInt64 = 0
    private var lastGroup = -1

    /// Creates the TEMP tables (on bench's connection, before the clock starts), then prepares the
    /// statements that read them.
    package init(context: StrategyContext) throws {
        let schema = context.schema
        let store = context.store
        self.schema = schema
        self.store = store
        sql = schema.entities.indices.map { StagedSQL(schema: schema, index: $0, generation: context.generation) }
        for entity in sql {
            for statement in entity.createSQL { try store.execute(statement) }
        }
        objects = try sql.map { entity in
            try StagedRows(store: store, table: entity.stageTable, columns: entity.stageColumns)
        }
        pairs = try sql.map { entity in
            try entity.entity.manyToMany.indices.map { try StagedRows(store: store, table: entity.pairsTable($0), columns: ["slot", "t"]) }
        }
        joins = try sql.map { entity in try entity.entity.manyToMany.indices.map { try store.prepare(entity.joinSQL($0)) } }
        upserts = Array(repeating: [:], count: schema.entities.count)
        selfUpdates = Array(repeating: [:], count: schema.entities.count)
        unique = UniqueObjects(entityCount: schema.entities.count)
        listing = ListingStamp(context: context)
        sweep = try RefreshSweep(context: context)
    }

    /// Per entity in dependency order, so every reference's target is written first: stage, write
    /// the objects, then their sets.
    package func write(_ batch: RecordBatch, pass: Int) throws {
        unique.collect(batch)
        for entity in schema.entities.indices {
            try stage(entity)
            guard objects[entity].rows > 0 else { continue }
            try writeObjects(of: entity)
            try writePairs(of: entity)
        }
    }

    /// The refresh sweep, as every strategy runs it.
    package func finishPass(_ pass: Int) throws {
        try sweep.run()
    }

    /// Fills the entity's stage and pair tables with the batch's unique objects, in slot order.
    private func stage(_ entity: Int) throws {
        let rows = objects[entity]
        let sets = pairs[entity]
        rows.begin()
        for set in sets { set.begin() }
        groups.removeAll(keepingCapacity: true)
        lastGroup = -1
        try unique.forEachObject(of: entity) { slot, object, occurrence in
            rows.add(.integer(Int64(slot)))
            rows.add(.integer(Int64(group(of: occurrence))))
            rows.add(occurrence.key)
            for value in occurrence.attributes { rows.add(value) }
            for reference in occurrence.toOne { rows.add(reference?.key ?? .null) }
            if let listed = listing.value(entityIndex: entity, listsChildren: object.listsChildren) { rows.add(.integer(listed)) }
            try rows.endRow()
            guard !occurrence.manyToMany.isEmpty else { return }
            for (relationship, references) in unique.manyToMany(object).enumerated() {
                for reference in references {
                    sets[relationship].add(.integer(Int64(slot)))
                    sets[relationship].add(reference.key)
                    try sets[relationship].endRow()
                }
            }
        }
        try rows.finish()
        for set in sets { try set.finish() }
    }

    /// The group of the occurrence's absent columns: its position in `groups`, added when new.
    @inline(__always)
    private func group(of occurrence: BatchOccurrence) -> Int {
        guard let bits = occurrence.absentColumnBits else { return group(for: occurrence.absentColumns) }
        if bits == lastBits, lastGroup >= 0 { return lastGroup }
        lastBits = bits
        lastGroup = group(for: ColumnSet(bits: bits))
        return lastGroup
    }

    /// A linear search: a batch has one or a few shapes.
    private func group(for absent: ColumnSet) -> Int {
        if let position = groups.firstIndex(of: absent) { return position }
        groups.append(absent)
        return groups.count - 1
    }

    /// One INSERT ... SELECT per group, then, for an entity that refers to itself, one UPDATE per
    /// group that sets a self-reference. A constraint failure is located as a dangling reference.
    private func writeObjects(of entity: Int) throws {
        for (group, absent) in groups.enumerated() {
            let statement = try upsertStatement(entity, absent: absent)
            statement.bind(Int64(group), at: 1)
            try execute(statement, entity: entity, selfReferences: false)
        }
        guard sql[entity].isSelfReference.contains(true) else { return }
        for (group, absent) in groups.enumerated() {
            guard let statement = try selfUpdateStatement(entity, absent: absent) else { continue }
            statement.bind(Int64(group), at: 1)
            try execute(statement, entity: entity, selfReferences: true)
        }
    }

    /// Runs an object write; a constraint it fails is reported as the reference that dangles, when one does.
    private func execute(_ statement: StoreStatement, entity: Int, selfReferences: Bool) throws {
        do {
            try statement.execute()
        } catch let error as StoreError where error.isConstraintViolation {
            throw try danglingToOne(of: entity, selfReferences: selfReferences) ?? error
        }
    }

    /// One INSERT ... SELECT per many-to-many relationship the batch staged pairs for.
    private func writePairs(of entity: Int) throws {
        for (relationship, rows) in pairs[entity].enumerated() where rows.rows > 0 {
            do {
                try joins[entity][relationship].execute()
            } catch let error as StoreError where error.isConstraintViolation {
                throw try danglingPair(of: entity, relationship: relationship) ?? error
            }
        }
    }

    /// The INSERT ... SELECT for a set of absent columns, prepared the first time it is met.
    private func upsertStatement(_ entity: Int, absent: ColumnSet) throws -> StoreStatement {
        if let statement = upserts[entity][absent] { return statement }
        let statement = try store.prepare(sql[entity].upsertSQL(absent: absent))
        upserts[entity][absent] = statement
        return statement
    }

    /// The self-references' UPDATE for a set of absent columns, prepared the first time it is met.
    private func selfUpdateStatement(_ entity: Int, absent: ColumnSet) throws -> StoreStatement? {
        if let statement = selfUpdates[entity][absent] { return statement }
        let statement = try sql[entity].selfReferenceSQL(absent: absent).map(store.prepare)
        selfUpdates[entity][absent] = .some(statement)
        return statement
    }

    /// After a failed write: the first staged object with a to-one key naming no row, as the error
    /// every strategy reports; one SELECT, on the failing path alone.
    private func danglingToOne(of entity: Int, selfReferences: Bool) throws -> StrategyError? {
        guard let text = sql[entity].danglingToOneSQL(selfReferences: selfReferences) else { return nil }
        let lookup = try store.prepare(text)
        defer { lookup.reset() }
        guard try lookup.step(), let occurrence = occurrence(of: entity, slot: Int(lookup.int64(at: 0))) else { return nil }
        return StrategyError.dangling(occurrence, toOne: Int(lookup.int64(at: 1)), in: schema)
    }

    /// After a failed pair write: the first staged pair whose target key names no row.
    private func danglingPair(of entity: Int, relationship: Int) throws -> StrategyError? {
        let lookup = try store.prepare(sql[entity].danglingPairSQL(relationship))
        defer { lookup.reset() }
        guard try lookup.step(), let occurrence = occurrence(of: entity, slot: Int(lookup.int64(at: 0))) else { return nil }
        return StrategyError.dangling(occurrence, manyToMany: relationship, targetKey: lookup.value(at: 1), in: schema)
    }

    /// The batch's object of `entity` at `slot`, copied out for an error message.
    private func occurrence(of entity: Int, slot: Int) -> RecordOccurrence? {
        var found: RecordOccurrence?
        unique.forEachObject(of: entity) { candidate, _, occurrence in
            if candidate == slot { found = occurrence.materialized }
        }
        return found
    }
}

/// The rows of one TEMP table, gathered in memory and written by multi-row `INSERT ... VALUES`:
/// one statement for each full chunk of rows, one per smaller count for the last chunk, each
/// prepared once. The table is emptied (`DELETE`, a truncation) before the first row of a batch,
/// so a table nothing is staged in costs no statement, and rows a failed batch left are never read.
final class StagedRows {
    /// Where the table is: bench's counted connection.
    private let store: StoreConnection
    /// `temp.<name>`.
    private let table: String
    /// The columns each row gives, in order.
    private let columns: [String]
    /// Rows per full statement: at most `StagedStrategy.maximumRowsPerStatement`, and within the
    /// connection's variable limit.
    let rowsPerStatement: Int
    /// `DELETE FROM` the table.
    private let clear: StoreStatement
    /// The INSERT of `rowsPerStatement` rows.
    private let full: StoreStatement
    /// The INSERTs of fewer rows, by count, for a batch's last chunk.
    private var shorter: [Int: StoreStatement] = [:]
    /// The pending rows' values, bound when a statement's worth is in (text is lent by the batch).
    private var values: [RecordValue] = []
    /// Whether the table was emptied in this batch yet.
    private var cleared = false
    /// Rows staged since `begin`, written or pending.
    private(set) var rows = 0

    /// Prepares the table's DELETE and its full-chunk INSERT; the table must exist.
    init(store: StoreConnection, table: String, columns: [String]) throws {
        self.store = store
        self.table = table
        self.columns = columns
        rowsPerStatement = max(1, min(StagedStrategy.maximumRowsPerStatement, store.variableLimit / columns.count))
        clear = try store.prepare(StagedSQL.clearSQL(table))
        full = try store.prepare(StagedSQL.insertRowsSQL(table, columns: columns, rows: rowsPerStatement))
        values.reserveCapacity(rowsPerStatement * columns.count)
    }

    /// Starts a batch: nothing pending, the table to be emptied before its first row.
    func begin() {
        values.removeAll(keepingCapacity: true)
        cleared = false
        rows = 0
    }

    /// The next value of the current row, in `columns` order.
    @inline(__always)
    func add(_ value: RecordValue) {
        values.append(value)
    }

    /// Ends the current row; writes the pending rows when they fill a statement.
    @inline(__always)
    func endRow() throws {
        rows += 1
        if values.count == rowsPerStatement * columns.count { try flush() }
    }

    /// Writes what is pending.
    func finish() throws {
        if !values.isEmpty { try flush() }
    }

    /// Empties the table if this batch has not yet, then inserts the pending rows in one statement.
    private func flush() throws {
        if !cleared {
            try clear.execute()
            cleared = true
        }
        let count = values.count / columns.count
        let statement = count == rowsPerStatement ? full : try shorterStatement(rows: count)
        for (offset, value) in values.enumerated() { statement.bind(value, at: Int32(offset + 1)) }
        values.removeAll(keepingCapacity: true)
        try statement.execute()
    }

    /// The INSERT of `count` rows, prepared the first time a batch ends with that many pending.
    private func shorterStatement(rows count: Int) throws -> StoreStatement {
        if let statement = shorter[count] { return statement }
        let statement = try store.prepare(StagedSQL.insertRowsSQL(table, columns: columns, rows: count))
        shorter[count] = statement
        return statement
    }
}
