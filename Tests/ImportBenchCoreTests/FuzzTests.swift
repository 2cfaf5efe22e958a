import Foundation
import ImportBenchCore
import ImportBenchPayload
import ImportBenchStore
import Testing

/// Damaged payloads, real and generated: truncated, bytes flipped, fields deleted, types swapped.
/// Whatever the damage, an import either succeeds with exactly the content the records say, or
/// stops with an error and a store holding exactly the batches it committed. A crash or a hang
/// fails the run. `IMPORTBENCH_FUZZ_CASES` raises the bounded count (`scripts/fuzz` does).
@Suite("Fuzzed payloads")
struct FuzzTests {
    static let cases = ProcessInfo.processInfo.environment["IMPORTBENCH_FUZZ_CASES"].flatMap(Int.init) ?? 300
    static let seed = ProcessInfo.processInfo.environment["IMPORTBENCH_FUZZ_SEED"].flatMap(UInt64.init) ?? 1

    enum Damage: CaseIterable {
        case truncate, flipByte, deleteField, swapType
    }

    /// One damaged copy of `bytes`: deterministic for the generator's state.
    static func damage(_ bytes: [UInt8], with damage: Damage, random: inout SeededRandom) -> [UInt8] {
        guard !bytes.isEmpty else { return bytes }
        var result = bytes
        let at = random.nextInt(below: bytes.count)
        switch damage {
        case .truncate:
            result.removeLast(bytes.count - at)
        case .flipByte:
            result[at] ^= UInt8(1 + random.nextInt(below: 255))
        case .deleteField:
            // From a member's opening quote to just past the next comma: `"name": value,` disappears.
            guard let quote = result[at...].firstIndex(of: UInt8(ascii: "\"")),
                let comma = result[quote...].firstIndex(of: UInt8(ascii: ","))
            else { break }
            result.removeSubrange(quote...comma)
        case .swapType:
            // The next value after a colon becomes a value of another JSON type.
            guard let colon = result[at...].firstIndex(of: UInt8(ascii: ":")) else { break }
            let start = colon + 1
            let end = result[start...].firstIndex { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "}") } ?? result.endIndex
            let replacements = ["42", "\"text\"", "null", "true", "[]", "{}", "-1.5e3"]
            result.replaceSubrange(start..<end, with: Array(replacements[random.nextInt(below: replacements.count)].utf8))
        }
        return result
    }

    struct Source {
        let scenario: any Scenario
        let bytes: [UInt8]
        let name: String
    }

    static func sources(in directory: TemporaryDirectory) throws -> [Source] {
        var sources: [Source] = []
        for (scenario, scale) in [(ChatScenario() as any Scenario, 0.01), (QuakesScenario(), 0.01), (ProductsScenario(), 0.02)] {
            let path = directory.path("\(scenario.name).json")
            try scenario.generate(scale: scale, seed: 3, to: path)
            sources.append(Source(scenario: scenario, bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))), name: scenario.name))
        }
        let recorded = SharedDatasets.path("usgs/all_day-2014-04-15.geojson")
        if let data = FileManager.default.contents(atPath: recorded) {
            sources.append(Source(scenario: QuakesScenario(), bytes: Array(data), name: "usgs day"))
        }
        return sources
    }

    @Test(
        "no crash, no hang: success with the records' content, or an error and exactly the committed batches",
        .timeLimit(.minutes(5)))
    func fuzz() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let sources = try Self.sources(in: directory)
        var random = SeededRandom(seed: Self.seed)
        var outcomes: [String: Int] = [:]
        for index in 0..<Self.cases {
            let source = sources[index % sources.count]
            let damage = Damage.allCases[random.nextInt(below: Damage.allCases.count)]
            let payload = directory.path("case.json")
            try Data(Self.damage(source.bytes, with: damage, random: &random)).write(to: URL(fileURLWithPath: payload))
            let strategy = StrategyCatalog.builtIn.all[random.nextInt(below: StrategyCatalog.builtIn.all.count)]
            let batchSize = 7 + random.nextInt(below: 300)
            let label = "case \(index) (\(source.name), \(damage), \(strategy.name), batches of \(batchSize), seed \(Self.seed))"
            let run = ImportRun(
                scenario: source.scenario, payloadPath: payload, method: strategy, batchSize: .occurrences(batchSize),
                databasePath: directory.path("store.sqlite"))
            do {
                let measurement = try run.execute()
                let expected = try ExpectedContent.build(
                    schema: source.scenario.schema, reader: source.scenario.openReader(path: payload),
                    scratchPath: directory.path("expected.sqlite"))
                #expect(measurement.digest == expected.digest, "\(label): imported, but \(measurement.digest.differences(from: expected.digest))")
                outcomes["imported", default: 0] += 1
            } catch let error as RunError where error.stop != nil {
                let error = try #require(error.stop)
                let store = try StoreConnection(path: run.databasePath)
                let actual = try source.scenario.schema.digest(of: store)
                let committed = try run.committedDigest(
                    pass: error.pass, committedOccurrences: error.committedOccurrences, scratchPath: directory.path("committed.sqlite"))
                // A stopped import is held to its rows and tables; bulk builds its indexes after its last batch.
                #expect(
                    actual.withoutIndexes == committed.withoutIndexes,
                    "\(label): \(error)\n\(actual.withoutIndexes.differences(from: committed.withoutIndexes))")
                #expect(error.committedOccurrences % batchSize == 0 || strategy.passes > 1, "\(label): a part of a batch was committed")
                outcomes["\(error.stage) error", default: 0] += 1
            } catch let error as PayloadError {
                // The reader refused the file before any batch (an empty or headless file): nothing may be stored.
                #expect(error.file == payload, "\(label): \(error)")
                outcomes["refused at open", default: 0] += 1
            }
        }
        // Damage must also be survivable, not only fatal: some cases import, some fail.
        #expect(outcomes["imported", default: 0] > 0, "\(outcomes)")
        #expect(outcomes["reading error", default: 0] > 0, "\(outcomes)")
    }
}
