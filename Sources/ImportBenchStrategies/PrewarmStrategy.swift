import ImportBenchPayload
import ImportBenchSchema
import ImportBenchStore

/// Per batch: collect the unique keys each entity needs, fetch the existing ones with
/// `SELECT key, pk ... WHERE key IN (...)` in chunks (keys bound sorted), then insert or update each
/// unique object once.
package final class PrewarmStrategy: ImportStrategy {
    package static let name = "prewarm"
    package static let summary = "per batch, one SELECT ... WHERE key IN (...) per chunk of keys, then insert or update each unique object once"

    private let schema: Schema
    private let store: StoreConnection
    private let chunkSize: Int
    private let insert: [StoreStatement]
    private let update: StatementsByAbsence
    private let insertJoin: [[StoreStatement]]
    private let sweep: RefreshSweep
    private let listing: ListingStamp
    // The state below is this strategy's alone, touched once or more per key: unchecked, since the
    // runtime's exclusivity checks on it were an eighth of the instructions fetching chat's keys.

    /// Prepared IN-list fetches per entity, by number of keys.
    @exclusivity(unchecked) private var fetchByCount: [[Int: StoreStatement]]

    private let interner: KeyInterner
    @exclusivity(unchecked) private var known: KnownPKs
    private let unique: UniqueObjects
    /// Per entity, by key ID: whether the current batch has named the key.
    @exclusivity(unchecked) private var namedInBatch: ValuesByKeyID<Bool>
    /// The distinct keys the current batch names, per entity, in order of first naming.
    @exclusivity(unchecked) private var named: [[RecordValue]]
    /// One chunk's keys in SQLite's index order (`RecordValue.sortsBefore`), bound in that order.
    @exclusivity(unchecked) private var chunk: [RecordValue] = []
    @exclusivity(unchecked) private var chunkSorter = KeyChunkSorter()
    /// One chunk's fetched keys and pks, kept until they are given their key IDs.
    @exclusivity(unchecked) private var fetched: [(key: StoreValue, pk: Int64)] = []

    package init(context: StrategyContext) throws {
        schema = context.schema
        store = context.store
        chunkSize = min(context.settings.keysPerFetch, context.store.variableLimit)
        interner = context.interner
        let store = context.store
        let generation = context.generation
        let schema = context.schema
        insert = try schema.entities.map { try store.prepare($0.insertObjectSQL(in: schema, generation: generation)) }
        update = try StatementsByAbsence(store: store, entityCount: schema.entities.count) { entity, absent in
            schema.entities[entity].updateObjectSQL(in: schema, generation: generation, absent: absent)
        }
        insertJoin = try schema.entities.map { entity in
            try entity.manyToMany.map { try store.prepare(entity.insertJoinSQL($0, generation: generation)) }
        }
        sweep = try RefreshSweep(context: context)
        listing = ListingStamp(context: context)
        fetchByCount = Array(repeating: [:], count: schema.entities.count)
        known = KnownPKs(entityCount: schema.entities.count)
        unique = UniqueObjects(entityCount: schema.entities.count)
        namedInBatch = ValuesByKeyID(entityCount: schema.entities.count)
        named = Array(repeating: [], count: schema.entities.count)
    }

    package func finishPass(_ pass: Int) throws {
        try sweep.run()
    }

    package func write(_ batch: RecordBatch, pass: Int) throws {
        known.removeAll()
        try prewarm(for: batch)
        unique.collect(batch)
        for entity in schema.entities.indices {
            try unique.forEachObject(of: entity) { _, object, occurrence in
                let foreignKeys = try known.foreignKeys(of: occurrence, in: schema)
                let listed = listing.value(entityIndex: entity, listsChildren: object.listsChildren)
                let pk: Int64
                if let existing = known[entity, occurrence.keyID] {
                    if let statement = try update.statement(for: occurrence) {
                        statement.bindUpdate(occurrence, foreignKeys: foreignKeys, listed: listed, pk: existing)
                        try statement.execute()
                    }
                    pk = existing
                } else {
                    insert[entity].bindListed(listed, at: insert[entity].bindObject(occurrence, foreignKeys: foreignKeys))
                    try insert[entity].execute()
                    pk = store.lastInsertRowid
                    known[entity, occurrence.keyID] = pk
                }
                guard !occurrence.manyToMany.isEmpty else { return }
                for (relationship, references) in unique.manyToMany(object).enumerated() {
                    let target = schema.manyToManyTargets[entity][relationship]
                    for reference in references {
                        guard let targetPK = known[target, reference.keyID] else {
                            throw StrategyError.dangling(occurrence, manyToMany: relationship, targetKey: reference.key, in: schema)
                        }
                        let statement = insertJoin[entity][relationship]
                        statement.bind(pk, at: 1)
                        statement.bind(targetPK, at: 2)
                        try statement.execute()
                    }
                }
            }
        }
    }

    /// Fetches the pks of every stored object the batch names, as an occurrence or a reference. Each
    /// chunk's keys are bound sorted: SQLite puts an IN list into a temporary index first, and sorted
    /// keys took a third off SQLite's instructions there (chat 1x, callgrind: 98.5 -> 62.6 million).
    private func prewarm(for batch: RecordBatch) throws {
        collectNamedKeys(batch.occurrences)
        for (entity, keys) in named.enumerated() where !keys.isEmpty {
            var start = 0
            while start < keys.count {
                chunk.removeAll(keepingCapacity: true)
                chunk.append(contentsOf: keys[start..<min(start + chunkSize, keys.count)])
                chunkSorter.sort(&chunk)
                let statement = try fetchStatement(entity: entity, count: chunk.count)
                for (offset, key) in chunk.enumerated() { statement.bind(key, at: Int32(offset + 1)) }
                defer { statement.reset() }
                fetched.removeAll(keepingCapacity: true)
                while try statement.step() { fetched.append((statement.value(at: 0), statement.int64(at: 1))) }
                // Every key fetched is one the batch named, so it has its ID. Under the interner's lock,
                // taken once per chunk: a decoding thread may be adding keys (`--decode-ahead`).
                interner.locked {
                    for (key, pk) in fetched {
                        if let id = interner.existingID(entity: entity, key: key) { known[entity, id] = pk }
                    }
                }
                start += chunkSize
            }
        }
    }

    /// The distinct keys per entity the batch names, as occurrences or as references, in order of
    /// first naming: found by key ID, hashing nothing.
    private func collectNamedKeys(_ occurrences: BatchOccurrences) {
        namedInBatch.removeAll()
        for entity in named.indices { named[entity].removeAll(keepingCapacity: true) }
        func note(_ entity: Int, _ id: Int32, _ key: RecordValue) {
            guard namedInBatch[entity, id] == nil else { return }
            namedInBatch[entity, id] = true
            named[entity].append(key)
        }
        for occurrence in occurrences {
            note(occurrence.entityIndex, occurrence.keyID, occurrence.key)
            for (index, reference) in occurrence.toOne.enumerated() {
                if let reference { note(schema.toOneTargets[occurrence.entityIndex][index], reference.keyID, reference.key) }
            }
            for (index, references) in occurrence.manyToMany.enumerated() {
                for reference in references {
                    note(schema.manyToManyTargets[occurrence.entityIndex][index], reference.keyID, reference.key)
                }
            }
        }
    }

    private func fetchStatement(entity: Int, count: Int) throws -> StoreStatement {
        if let statement = fetchByCount[entity][count] { return statement }
        let statement = try store.prepare(schema.entities[entity].selectPKsByKeysSQL(count: count))
        fetchByCount[entity][count] = statement
        return statement
    }
}
