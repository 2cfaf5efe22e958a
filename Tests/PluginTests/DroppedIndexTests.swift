import Foundation
import ImportBench
// The harness that runs the plug-in, as bench does: not what a plug-in imports.
import ImportBenchCore
import Testing

/// `OneUpsertStrategy`, then the index on the first join table's targets dropped, through the public
/// API alone: what a plug-in that drops indexes to load faster and forgets one leaves behind.
final class IndexForgettingUpsert: ImportStrategy {
    static let name = "index-forgetting-upsert"
    static let summary = "test: one-upsert, then the first join table's index dropped"

    private let upsert: OneUpsertStrategy
    private let context: StrategyContext

    init(context: StrategyContext) throws {
        upsert = try OneUpsertStrategy(context: context)
        self.context = context
    }

    func write(_ batch: RecordBatch, pass: Int) throws { try upsert.write(batch, pass: pass) }

    func finishPass(_ pass: Int) throws {
        try upsert.finishPass(pass)
        for name in try Self.droppedIndexes(in: context.store, schema: context.schema) {
            try context.store.execute("DROP INDEX \"\(name)\"")
        }
    }

    /// The indexes it drops: those created on the first join table (its primary key is the table itself).
    static func droppedIndexes(in store: StoreConnection, schema: Schema) throws -> [String] {
        guard let entity = schema.entities.first(where: { !$0.manyToMany.isEmpty }) else { return [] }
        let statement = try store.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name = ?")
        defer { statement.reset() }
        statement.bind(entity.joinTable(entity.manyToMany[0]), at: 1)
        var names: [String] = []
        while try statement.step() {
            if case .text(let name) = statement.value(at: 0) { names.append(name) }
        }
        return names
    }
}

@Suite("A plug-in's store without an index of the schema's")
struct DroppedIndexTests {
    @Test("is invalid, the dropped index named, though its data and its digest are the built-ins'")
    func droppedIndexIsInvalid() throws {
        let catalog = try StrategyCatalog.builtIn.adding([OneUpsertStrategy.self, IndexForgettingUpsert.self])
        let strategies = try [OneUpsertStrategy.name, IndexForgettingUpsert.name].map { try #require(catalog.strategy(named: $0)) }
        let scenario = ChatScenario()
        let outcome = try Benchmark(
            configuration: BenchmarkConfiguration(
                spec: RunSpec(scenario: scenario.source, payload: .generated(scale: try #require(Scale(factor: 0.05)), seed: 4)),
                strategies: strategies, catalog: catalog)
        ).run()
        let intact = try #require(outcome.results.first { $0.strategy == OneUpsertStrategy.name })
        let forgetting = try #require(outcome.results.first { $0.strategy == IndexForgettingUpsert.name })
        #expect(intact.valid, "\(intact.differences)")
        #expect(!forgetting.valid)
        #expect(forgetting.digest == intact.digest)

        // The index as the schema creates it, read from a store of its DDL.
        let store = try StoreConnection(path: ":memory:")
        for statement in scenario.schema.ddl { try store.execute(statement) }
        let dropped = try IndexForgettingUpsert.droppedIndexes(in: store, schema: scenario.schema)
        try #require(dropped.count == 1)
        let entity = try #require(scenario.schema.entities.first { !$0.manyToMany.isEmpty })
        let table = entity.joinTable(entity.manyToMany[0])
        #expect(forgetting.differences == ["index \(dropped[0]) on \(table)(target_pk) is missing"])
    }
}
