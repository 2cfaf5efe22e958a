import Foundation
import Testing

@testable import ImportBenchCore
@testable import ImportBenchPayload
@testable import ImportBenchStrategies

@Suite("A payload with nothing to import")
struct EverythingSkippedTests {
    @Test("--on-error skip that skipped every record fails, saying so, instead of importing nothing as a success")
    func everythingSkipped() throws {
        try withTemporaryPayloadDirectory { directory in
            let path = directory.path("bad.json")
            try Data("{\"channels\":[{\"x\":1},{\"y\":2}]}".utf8).write(to: URL(fileURLWithPath: path))
            let configuration = BenchmarkConfiguration(
                spec: RunSpec(scenario: .builtIn("chat"), payload: .file(path), options: RunOptions(onError: .skip)),
                strategies: [NaiveStrategy.self])
            let error = #expect(throws: PayloadError.self) { _ = try Benchmark(configuration: configuration).run() }
            #expect(error?.found.hasPrefix("every record skipped under --on-error skip (2 malformed channel)") == true)
        }
    }
}
