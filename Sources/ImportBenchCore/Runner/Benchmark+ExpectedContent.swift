import Foundation
import ImportBenchPayload
import ImportBenchStrategies

extension Benchmark {
    /// The second phase: the payload read whole, after its preload for a refresh, to work out what
    /// every run must end with; hashed on the way, since checkpoints record what they were made
    /// from. A payload that cannot be imported stops the benchmark here (`RunError.badPayload`).
    func expectedContent(of payload: BenchmarkPayload, _ observe: (BenchmarkEvent) -> Void) throws -> BenchmarkExpectation {
        try Self.stopIfInterrupted()
        observe(.readingExpectedContent)
        let preloadPath = try resolvePreload(of: payload)
        // Every run reads the payload through the same reader, so what it skips is the same for all.
        var preloadReading = configuration.spec.options.reading
        preloadReading.hasher = preloadPath == nil ? nil : PayloadHasher()
        var payloadReading = configuration.spec.options.reading
        payloadReading.hasher = PayloadHasher()
        // Under a missing-reference policy a refresh's payload may name what the preload stores. A
        // missing preload is reported below; a bad one is handled as a bad payload.
        if let preloadPath, FileManager.default.fileExists(atPath: preloadPath) {
            payloadReading = try reportingBadPayload(payload, preloadPath: preloadPath, observe) {
                try payload.scenario.reading(payloadReading, afterPreload: preloadPath)
            }
        }
        let reader = try payload.scenario.openPayload(path: payload.path, reading: payloadReading)
        let contents = try reportingBadPayload(payload, preloadPath: preloadPath, observe) {
            try RunError.during(.workingOutExpectedContent, in: payload.workDirectory.path) {
                try buildExpected(payload, reader: reader, preloadPath: preloadPath, preloadReading: preloadReading)
            }
        }
        // Under --on-error skip, a payload whose every record was skipped would import nothing and
        // look like a success.
        if contents.expected.occurrences == 0, !reader.skippedRecords.isEmpty {
            throw PayloadError.everyRecordSkipped(file: payload.path, skipped: reader.skippedRecords, first: reader.skippedErrors.first)
        }
        rememberPayloadIdentity(payload: payloadReading, preload: preloadReading)
        return BenchmarkExpectation(
            preloadPath: preloadPath, expected: contents.expected, expectedWithoutPreload: contents.alone,
            referenceSkipped: contents.referenceSkipped, skippedRecords: reader.skippedRecords, skippedErrors: reader.skippedErrors,
            readingNotes: reader.readingNotes)
    }

    /// What the stores must hold: after the preload, if any, and the payload alone (the
    /// reference's), or why the reference cannot run.
    private func buildExpected(
        _ payload: BenchmarkPayload, reader: any RecordReader, preloadPath: String?, preloadReading: PayloadReading
    ) throws -> (expected: ExpectedContent, alone: ExpectedContent?, referenceSkipped: String?) {
        let scenario = payload.scenario
        let scratchPath = payload.file("expected.sqlite")
        guard let preloadPath else {
            let expected = try ExpectedContent.build(schema: scenario.schema, reader: reader, scratchPath: scratchPath)
            return (expected, expected, nil)
        }
        guard FileManager.default.fileExists(atPath: preloadPath) else {
            throw PayloadError(file: preloadPath, byteOffset: nil, path: nil, expected: .readable(.preloadPayload), found: "no such file")
        }
        let expected = try ExpectedContent.build(
            schema: scenario.schema, preload: scenario.openPayload(path: preloadPath, reading: preloadReading), reader: reader,
            scratchPath: scratchPath)
        // A refresh may name objects only the preload holds; plain inserts into an empty store
        // cannot. Under a missing-reference policy they can: the ceiling, which loads the payload
        // alone, then stubs or drops what only the preload holds, as the policy says for an empty store.
        do {
            let alone = try ExpectedContent.build(
                schema: scenario.schema, reader: scenario.openPayload(path: payload.path, reading: configuration.spec.options.reading),
                scratchPath: scratchPath)
            return (expected, alone, nil)
        } catch let error as StrategyError {
            return (expected, nil, "the payload alone cannot be loaded into an empty store (\(error))")
        }
    }

    /// The payload's hash and origin, for every run's checkpoint, once the payload was read whole.
    private func rememberPayloadIdentity(payload: PayloadReading, preload: PayloadReading) {
        guard let digest = payload.hasher?.digest else { return }
        payloadIdentity = PayloadIdentity(
            source: configuration.spec.payload.generator.map { "generated at \($0.scale), seed \($0.seed)" } ?? "recorded",
            digest: digest, preloadDigest: preload.hasher?.digest)
    }
}
