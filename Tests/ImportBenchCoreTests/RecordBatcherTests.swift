import Foundation
import ImportBenchSchema
import ImportBenchStore
import Testing

@testable import ImportBenchCore
@testable import ImportBenchPayload

@Suite("Record batcher and builder")
struct RecordBatcherTests {
    let chat = ChatScenario()

    /// Everything a strategy can read of an occurrence, ordinal, unit and key IDs included.
    static func fingerprint(_ occurrence: BatchOccurrence) -> String {
        func reference(_ reference: BatchReference?) -> String {
            guard let reference else { return "nil" }
            return "\(reference.key.storeValue)#\(reference.keyID)@\(reference.embeddedOrdinal.map(String.init) ?? "-")"
        }
        return "\(occurrence.ordinal) u\(occurrence.unit) e\(occurrence.entity) \(occurrence.key.storeValue)#\(occurrence.keyID) "
            + "\(occurrence.attributes.map(\.storeValue)) \(occurrence.toOne.map(reference)) "
            + "\(occurrence.manyToMany.map { $0.map(reference) })"
    }

    /// Every batch's size and its occurrences' fingerprints.
    func batches(
        _ reader: any RecordReader, _ batchSize: BatchSize, schema: Schema? = nil, partSize: Int = Int.max
    ) throws -> (sizes: [Int], occurrences: [String]) {
        let batcher = RecordBatcher(reader: reader, batchSize: batchSize, schema: schema ?? chat.schema, partSize: partSize)
        var sizes: [Int] = []
        var occurrences: [String] = []
        while let batch = try batcher.next() {
            sizes.append(batch.occurrences.count)
            occurrences += batch.occurrences.map(Self.fingerprint)
        }
        return (sizes, occurrences)
    }

    /// A reader that offers only `nextUnit`, so the batcher takes the `RecordUnit` path.
    final class UnitsOnly: RecordReader {
        let reader: any RecordReader
        init(_ reader: any RecordReader) { self.reader = reader }
        func nextUnit() throws -> RecordUnit? { try reader.nextUnit() }
    }

    @Test(
        "batches of any size hold the same occurrences, cut exactly at the batch size, units straddling them",
        arguments: [BatchSize.occurrences(1), .occurrences(7), .occurrences(250)])
    func anyBatchSize(batchSize: BatchSize) throws {
        try withGeneratedChatPayload(scale: 0.04, seed: 3) { path, _ in
            let whole = try batches(chat.openReader(path: path), .all)
            let cut = try batches(chat.openReader(path: path), batchSize)
            guard case .occurrences(let size) = batchSize else { return }
            #expect(whole.sizes.count == 1)
            #expect(whole.occurrences.count > 1_000)
            #expect(cut.occurrences == whole.occurrences)
            #expect(cut.sizes.dropLast().allSatisfy { $0 == size })
            #expect(cut.sizes.count == (whole.occurrences.count + size - 1) / size)
        }
    }

    @Test(
        "batches share storage without copying: kept until the end, each still reads what it was cut with",
        arguments: [1, 7, 250])
    func batchesKeptAliveReadTheSame(size: Int) throws {
        try withGeneratedChatPayload(scale: 0.04, seed: 3) { path, _ in
            let whole = try batches(chat.openReader(path: path), .all)
            let batcher = RecordBatcher(reader: try chat.openReader(path: path), batchSize: .occurrences(size), schema: chat.schema)
            var kept: [RecordBatch] = []
            while let batch = try batcher.next() { kept.append(batch) }
            #expect(kept.flatMap { $0.occurrences.map(Self.fingerprint) } == whole.occurrences)
            // Past one occurrence a batch can begin in one storage and end in another; some must, or
            // the test proves nothing about that case.
            let spansTwo = kept.contains { $0.occurrences.first.count > 0 && $0.occurrences.second.count > 0 }
            #expect(spansTwo == (size > 1))
        }
    }

    @Test(
        "a batch filled part by part reads as one built whole, in order and by index",
        arguments: [
            ("chat", BatchSize.all, 1), ("products", .all, 40), ("products", .all, 500), ("products", .occurrences(300), 1),
            ("products", .occurrences(300), 120), ("quakes", .all, 7),
        ])
    func partsReadAsOneBatch(scenarioName: String, batchSize: BatchSize, partSize: Int) throws {
        let scenario = try #require(ScenarioRegistry.scenario(named: scenarioName))
        try withTemporaryPayloadDirectory { directory in
            let path = directory.path("payload.json")
            try scenario.generate(scale: 0.2, seed: 4, to: path)
            let whole = try batches(scenario.openReader(path: path), batchSize, schema: scenario.schema)
            let batcher = RecordBatcher(
                reader: try scenario.openReader(path: path), batchSize: batchSize, schema: scenario.schema, partSize: partSize)
            var kept: [RecordBatch] = []
            while let batch = try batcher.next() { kept.append(batch) }
            #expect(kept.map(\.occurrences.count) == whole.sizes)
            #expect(kept.flatMap { $0.occurrences.map(Self.fingerprint) } == whole.occurrences)
            let byIndex = kept.flatMap { batch in batch.occurrences.indices.map { Self.fingerprint(batch.occurrences[$0]) } }
            #expect(byIndex == whole.occurrences)
            // Parts must have been sealed, or the test proves nothing about batches of many segments.
            #expect(kept.contains { $0.occurrences.segments.count > 2 })
        }
    }

    /// A number key read from a payload must be the text `String(value)` makes, interned as that text.
    @Test(
        "an integer key or reference written as decimal text is the key String(value) gives, with its ID",
        arguments: [0, 7, 9, 10, 99, 100, -1, -10, 138_586_341, Int.max, Int.min])
    func decimalKeys(value: Int) throws {
        let schema = ChatScenario().schema
        let interner = KeyInterner(entityCount: schema.entities.count)
        let builder = RecordBuilder(schema: schema, interner: interner)
        let entity = try #require(schema.entities.firstIndex { !$0.toOne.isEmpty })
        let target = schema.toOneTargets[entity][0]
        // IDs count per entity: keys of the referring entity first, so an ID interned under it differs.
        for filler in ["first", "second", "third"] { _ = interner.id(entity: entity, key: .text(filler)) }
        builder.beginUnit()
        builder.begin(entity: target)
        builder.key(.text(String(value)))
        for _ in schema.entities[target].attributes { builder.absent() }
        for _ in schema.entities[target].toOne { builder.noReference() }
        for _ in schema.entities[target].manyToMany { builder.beginSet() }
        builder.finish()
        builder.begin(entity: entity)
        builder.key(decimal: value)
        for _ in schema.entities[entity].attributes { builder.absent() }
        builder.reference(decimalKey: value)
        for _ in schema.entities[entity].toOne.dropFirst() { builder.noReference() }
        for _ in schema.entities[entity].manyToMany { builder.beginSet() }
        builder.finish()
        builder.endUnit()
        let occurrences = builder.cut(first: 2, index: 0).occurrences
        #expect(occurrences[1].key.storeValue == .text(String(value)))
        let reference = try #require(occurrences[1].toOne[0])
        #expect(reference.key.storeValue == .text(String(value)))
        #expect(reference.keyID == occurrences[0].keyID)
        #expect(interner.existingID(entity: target, key: .text(String(value))) == reference.keyID)
    }

    @Test("a cut of no occurrence keeps the finished ones for the next batch")
    func emptyCutKeepsWhatIsFinished() throws {
        let products = ProductsScenario()
        let builder = RecordBuilder(schema: products.schema, interner: KeyInterner(entityCount: products.schema.entities.count))
        for key in ["a", "b", "c"] {
            builder.beginUnit()
            builder.begin(entity: 0)
            builder.key(.text(key))
            for _ in ProductsPayloadReader.product.attributes { builder.absent() }
            builder.finish()
        }
        let empty = builder.cut(first: 0, index: 0)
        #expect(empty.occurrences.isEmpty && builder.count == 3)
        let next = builder.cut(first: 3, index: 1)
        #expect(next.occurrences.map { $0.key.storeValue } == [.text("a"), .text("b"), .text("c")])
        #expect(next.occurrences.map(\.ordinal) == [0, 1, 2])
    }

    @Test("every key has its ID, and a reference to an embedded occurrence has that occurrence's ID")
    func embeddedReferencesShareTheTargetsID() throws {
        try withGeneratedChatPayload(scale: 0.04, seed: 6) { path, _ in
            let batcher = RecordBatcher(reader: try chat.openReader(path: path), batchSize: .occurrences(97), schema: chat.schema)
            var idByOrdinal: [Int: Int32] = [:]
            var embedded = 0
            while let batch = try batcher.next() {
                for occurrence in batch.occurrences {
                    #expect(occurrence.keyID >= 0)
                    idByOrdinal[occurrence.ordinal] = occurrence.keyID
                    let references = occurrence.toOne.compactMap { $0 } + occurrence.manyToMany.flatMap { Array($0) }
                    for reference in references {
                        #expect(reference.keyID >= 0)
                        guard let target = reference.embeddedOrdinal else { continue }
                        embedded += 1
                        #expect(idByOrdinal[target] == reference.keyID)
                    }
                }
            }
            #expect(embedded > 1_000)
        }
    }

    @Test("the builder path and the RecordUnit path give the same batches", arguments: ["chat", "products", "quakes"])
    func unitPathAgrees(scenarioName: String) throws {
        let scenario = try #require(ScenarioRegistry.scenario(named: scenarioName))
        try withTemporaryPayloadDirectory { directory in
            let path = directory.path("payload.json")
            try scenario.generate(scale: 0.1, seed: 4, to: path)
            let direct = try batches(scenario.openReader(path: path), .occurrences(300), schema: scenario.schema)
            let viaUnits = try batches(UnitsOnly(scenario.openReader(path: path)), .occurrences(300), schema: scenario.schema)
            #expect(direct.occurrences.count >= 1_000)
            #expect(viaUnits.occurrences == direct.occurrences)
            #expect(viaUnits.sizes == direct.sizes)
        }
    }

    @Test("a channel skipped half-way through leaves nothing in the batch: ordinals and units stay consecutive")
    func skippedUnitLeavesNothing() throws {
        // Channel b fails on its second message, after its first message's occurrences were written.
        let bad = #"{"channel":{"cid":"messaging:b"},"messages":[{"id":"b-m1","user":{"id":"u7"}},{"id":"b-m2","user":{"id":7}}]}"#
        let (bytes, _) = BadPayloadTests.chatPayload(around: Array(bad.utf8))
        let clean = Array((#"{"channels":["# + BadPayloadTests.goodChannel("a") + "," + BadPayloadTests.goodChannel("c") + "]}").utf8)
        try withTemporaryPayloadDirectory { directory in
            let skipping = directory.path("bad.json")
            let expected = directory.path("clean.json")
            try Data(bytes).write(to: URL(fileURLWithPath: skipping))
            try Data(clean).write(to: URL(fileURLWithPath: expected))
            let reader = try chat.openReader(path: skipping, onError: .skip)
            let read = try batches(reader, .occurrences(4))
            #expect(reader.skippedRecords == ["malformed channel": 1])
            #expect(read.occurrences == (try batches(chat.openReader(path: expected), .occurrences(4))).occurrences)
            #expect(!read.occurrences.contains { $0.contains("u7") })
        }
    }
}

@Suite("Decode measurement")
struct DecodeMeasurementTests {
    @Test("it reads every unit and occurrence an import reads, in as many batches")
    func countsWhatAnImportReads() throws {
        let chat = ChatScenario()
        try withGeneratedChatPayload(scale: 0.04, seed: 2) { path, data in
            let facts = try PayloadFacts(reader: chat.openReader(path: path), schema: chat.schema)
            let measured = try DecodeMeasurement.measure(scenario: chat, path: path, batchSize: .occurrences(100), reading: PayloadReading())
            #expect(measured.occurrences == facts.occurrences.count)
            #expect(measured.batches == (facts.occurrences.count + 99) / 100)
            let channels = try #require(
                (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["channels"] as? [Any])
            #expect(measured.units == channels.count)
            #expect(measured.payloadBytes == Int64(data.count))
            #expect(measured.seconds > 0)
        }
    }
}
