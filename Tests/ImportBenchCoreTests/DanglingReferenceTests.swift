import ImportBenchSchema
import ImportBenchStore
import Testing

@testable import ImportBenchCore
@testable import ImportBenchPayload
@testable import ImportBenchStrategies

/// `Schema.danglingReference(from:to:key:)`: the error a plug-in throws for a reference it cannot
/// resolve is bench's own, naming the relationship the key came through.
@Suite("A plug-in's dangling reference")
struct DanglingReferenceTests {
    /// The fixture's post 2 (author bob, reply to post 1, tags swift and sql), as a batch holds it.
    static func secondPost() throws -> (BatchOccurrence, RecordBatch) {
        let batcher = RecordBatcher(reader: ArrayRecordReader(FixtureScenario.forumUnits), batchSize: .all, schema: FixtureScenario.schema)
        let batch = try #require(try batcher.next())
        let post = try #require(FixtureScenario.schema.index(of: "post"))
        let occurrence = try #require(batch.occurrences.first { $0.entityIndex == post && $0.key.storeValue == .integer(2) })
        return (occurrence, batch)
    }

    @Test(
        "names the to-one relationship or set the key came through",
        arguments: [
            ("author", "bob", "author"), ("post", "1", "reply_to"), ("tag", "sql", "tags"),
        ])
    func namesTheRelationship(target: String, key: String, relationship: String) throws {
        let schema = FixtureScenario.schema
        let (occurrence, batch) = try Self.secondPost()
        let error = withExtendedLifetime(batch) {
            schema.danglingReference(from: occurrence, to: schema.id(of: target) ?? EntityID(-1), key: key)
        }
        let targetKey: StoreValue = target == "post" ? .integer(1) : .text(key)
        #expect(
            error as? StrategyError
                == .danglingReference(
                    source: "post", sourceKey: .integer(2), relationship: relationship, target: target, targetKey: targetKey))
    }

    @Test("a key the occurrence does not hold is still located, through the first relationship to that entity")
    func keyNotHeld() throws {
        let schema = FixtureScenario.schema
        let (occurrence, batch) = try Self.secondPost()
        let error = withExtendedLifetime(batch) {
            schema.danglingReference(from: occurrence, to: schema.id(of: "author") ?? EntityID(-1), key: "nobody")
        }
        #expect(
            error as? StrategyError
                == .danglingReference(
                    source: "post", sourceKey: .integer(2), relationship: "author", target: "author", targetKey: .text("nobody")))
    }
}
