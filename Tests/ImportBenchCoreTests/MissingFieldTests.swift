import Foundation
import Testing

@testable import ImportBenchCore

@Suite("Real lists with a broken channel")
struct MissingFieldTests {
    @Test("a channel that lacks its cid is skipped under --on-error skip, and every strategy imports the rest valid")
    func channelWithoutCID() throws {
        try withTemporaryPayloadDirectory { directory in
            let full = directory.path("full.json")
            try ChatScenario().generate(scale: 0.04, seed: 3, to: full)
            var text = try String(contentsOfFile: full, encoding: .utf8)
            let cid = try #require(text.range(of: "\"cid\":\"messaging:channel-1\","))
            text.removeSubrange(cid)
            let payload = directory.path("payload.json")
            try text.write(toFile: payload, atomically: true, encoding: .utf8)
            let configuration = BenchmarkConfiguration(
                spec: RunSpec(scenario: .builtIn("chat"), payload: .file(payload), options: RunOptions(onError: .skip)),
                strategies: StrategyCatalog.builtIn.all)
            let outcome = try Benchmark(configuration: configuration).run()
            #expect(outcome.skippedRecords == ["malformed channel": 1])
            let planned = configuration.plannedStrategies.count
            #expect(outcome.results.count == planned)
            #expect(outcome.results.allSatisfy { $0.valid })
            #expect(Set(outcome.results.map(\.digest)).count == 1)
        }
    }
}
