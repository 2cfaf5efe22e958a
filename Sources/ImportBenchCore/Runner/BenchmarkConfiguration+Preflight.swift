import Foundation
import ImportBenchPayload

/// What a sweep checks before its first import, so it never stops at its third configuration for
/// want of disk or memory, or over a file it did not make: every refusal is a `RunError.refused`.
extension BenchmarkConfiguration {
    /// Refuses the first configuration whose payload, stores or record buffers would not fit on
    /// this machine now (`DiskNeed`, `MemoryNeed`), and any kept store's path that holds a file
    /// bench did not make. One sample per scenario and one size per payload file serve the sweep.
    package static func checkResources(of configurations: [BenchmarkConfiguration]) throws {
        var estimates = ResourceEstimates()
        for configuration in configurations {
            try estimates.check(configuration)
        }
        for configuration in configurations {
            try configuration.checkKeptStores()
        }
    }

    /// Refuses a kept store's path (`--db`) that holds a file bench did not make.
    private func checkKeptStores() throws {
        let benchmark = Benchmark(configuration: self)
        for strategy in plannedStrategies {
            guard let path = benchmark.keptDatabasePath(for: strategy.name) else { continue }
            if case .other(let what) = DatabaseFile.occupant(of: path) {
                throw RunError.refused(.notOurStore(path: path, found: what))
            }
        }
    }
}

/// The samples and payload sizes a sweep's checks share: each scenario sampled once, whatever the
/// sweep (generated, or for a mapping without a generator the payload's first units), and each
/// payload file measured once (a gzip one inflated to be measured).
private struct ResourceEstimates {
    private var samples: [ScenarioSource: ScenarioSample] = [:]
    private var payloadBytes: [String: Double] = [:]

    mutating func check(_ configuration: BenchmarkConfiguration) throws {
        let source = configuration.spec.scenario
        let scenario = try source.resolve()
        let kept = configuration.databasePath == nil ? 0 : configuration.plannedStrategies.count
        switch configuration.spec.payload {
        case .generated(let scale, _):
            let sample = try sample(of: scenario, recorded: nil)
            try DiskNeed.check(
                scenario, scale: scale, payloadBytesAtBaseScale: sample.payloadBytesAtBaseScale, keptStores: kept,
                keptPath: configuration.databasePath)
            try MemoryNeed.check(
                scenario, payloadBytes: sample.payloadBytesAtBaseScale * scale.factor,
                recordBytesPerPayloadByte: sample.recordBytesPerPayloadByte, describing: "\(scenario.name) at \(scale)")
        case .file(let path):
            let bytes = bytes(of: path)
            try DiskNeed.check(
                scenario, scale: .base, payloadBytesAtBaseScale: bytes, keptStores: kept,
                keptPath: configuration.databasePath, describing: "the payload \(path)", scalable: false)
            let sample = try sample(of: scenario, recorded: path)
            try MemoryNeed.check(
                scenario, payloadBytes: bytes, recordBytesPerPayloadByte: sample.recordBytesPerPayloadByte,
                describing: "the payload \(path)", scalable: false)
        }
    }

    /// The scenario's sample: generated where it has a generator, else the recorded payload's first units.
    private mutating func sample(of scenario: any Scenario, recorded path: String?) throws -> ScenarioSample {
        if let known = samples[scenario.source] { return known }
        let sample =
            if let path, !scenario.source.generates {
                try ScenarioSample(of: scenario, recorded: path)
            } else {
                try ScenarioSample(of: scenario)
            }
        samples[scenario.source] = sample
        return sample
    }

    private mutating func bytes(of path: String) -> Double {
        if let known = payloadBytes[path] { return known }
        let measured = Double(PayloadSize.bytes(at: path))
        payloadBytes[path] = measured
        return measured
    }
}
