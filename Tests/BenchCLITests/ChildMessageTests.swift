import Foundation
import Testing

@testable import ImportBenchCLI
@testable import ImportBenchCore
@testable import ImportBenchPayload
@testable import ImportBenchStrategies

@Suite("Messages from an isolated run's child")
struct ChildMessageTests {
    /// What a message says, as JSON with sorted keys: the payload types are not Equatable.
    static func text(_ message: ChildMessage) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(message), as: UTF8.self)
    }

    @Test("progress, a result and a failure arrive whole and in order; then the end of the stream")
    func roundTrip() throws {
        var measurement = ImportMeasurement()
        measurement.occurrences = 1_234
        measurement.wallSeconds = 0.5
        let report = ImportStop(
            strategy: "naive", stage: .writing, pass: 0, batch: nil, batchIndex: 3, committedBatches: 3,
            committedOccurrences: 300, databasePath: "/tmp/s.sqlite", checkpointed: true,
            cause: ImportError.fileOperation(operation: "write", path: "/tmp/s.sqlite", reason: "boom"))
        let messages: [ChildMessage] = [.progress(occurrences: 10), .progress(occurrences: 20), .result(measurement), .failure(report)]
        let pipe = Pipe()
        for message in messages { pipe.fileHandleForWriting.write(try ChildMessageFraming.encode(message)) }
        try pipe.fileHandleForWriting.close()
        var received: [String] = []
        while let message = try ChildMessageFraming.read(from: pipe.fileHandleForReading) { received.append(try Self.text(message)) }
        #expect(received == (try messages.map(Self.text)))
    }

    @Test(
        "anything else on the stream is refused with what was wrong, not decoded or waited for",
        arguments: [Data("hello, world".utf8), Data([0, 0, 0, 9, 0x7B]), Data([0, 0, 0, 2, 0x7B, 0x7D]), Data([0, 0])])
    func notMessages(bytes: Data) throws {
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(bytes)
        try pipe.fileHandleForWriting.close()
        #expect {
            _ = try ChildMessageFraming.read(from: pipe.fileHandleForReading)
        } throws: { error in
            guard let failure = error as? CommandFailure, case .child = failure.problem else { return false }
            return true
        }
    }

    /// Naive on a small products payload in batches of 10, in a fresh directory; `payload`
    /// may change the payload's bytes first.
    static func withProductsRun(_ payload: (Data) -> Data = { $0 }, _ body: (ImportRun) throws -> Void) throws {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("p.json")
        try ProductsScenario().generate(scale: 0.05, seed: 1, to: path.path)
        try payload(try Data(contentsOf: path)).write(to: path)
        try body(
            ImportRun(
                scenario: ProductsScenario(), payloadPath: path.path, method: NaiveStrategy.self, batchSize: .occurrences(10),
                databasePath: directory.appendingPathComponent("s.sqlite").path))
    }

    @Test(
        "an isolated run hands its progress to the parent as it imports, then its measurement")
    func progressFromTheChild() throws {
        try Self.withProductsRun { run in
            var reported: [Int] = []
            let measurement = try ChildProcessExecutor(executable: IsolatedRunTests.binary).execute(run) { reported.append($0) }
            let payload = try DecodeMeasurement.measure(
                scenario: run.scenario, path: run.payloadPath, batchSize: run.options.batchSize, reading: PayloadReading())
            #expect(measurement.occurrences == payload.occurrences)
            // The first batch is always reported; later ones at most ten times a second.
            guard case .occurrences(let batch) = run.options.batchSize else {
                Issue.record("batches expected")
                return
            }
            #expect(reported.first == batch)
            #expect(reported == reported.sorted())
            #expect(reported.allSatisfy { $0 <= measurement.occurrences })
        }
    }

    @Test(
        "a child's failure reaches the parent as the RunError an in-process run throws")
    func failureFromTheChild() throws {
        // The payload cut in half: it stops while reading, after some batches are committed.
        let halved: (Data) -> Data = { $0.prefix($0.count / 2) }
        try Self.withProductsRun(halved) { run in
            let inProcess = try #require(try #require(throws: RunError.self) { try run.execute() }.stop)
            let isolated = try #require(
                try #require(throws: RunError.self) {
                    try ChildProcessExecutor(executable: IsolatedRunTests.binary).execute(run) { _ in }
                }.stop)
            #expect(isolated.stage == .reading)
            #expect(isolated.committedBatches == inProcess.committedBatches)
            #expect(isolated.committedOccurrences > 0)
            #expect(isolated.description == inProcess.description)
            // The cause crosses as the payload layer's own error, not as text.
            guard case .payload(let payloadError) = isolated.cause else {
                Issue.record("expected the payload's error, got \(isolated.cause)")
                return
            }
            #expect(isolated.cause == inProcess.cause)
            #expect(payloadError.file == run.payloadPath)
        }
    }
}
