/// What a group of runs holds fixed, everything but the strategy and the repetition: the payload
/// (scenario, preload) and every setting the results record (scale, batch size, journal,
/// synchronous, each pragma, decoding ahead, the probe's rate). Runs of one identity are comparable; runs of two
/// identities differing in one dimension show what that dimension does.
package struct RunIdentity: Hashable, Sendable {
    package private(set) var scenario: String
    package private(set) var preload: String
    /// Empty for an unprobed run: a probed import is slower, so it is never ranked against an unprobed one.
    package private(set) var probeHz: String
    private var values: [SweepDimension: String]
    /// Orders scales (a recorded payload's by its records); 0 once the scale is left open.
    package private(set) var scaleFactor: Double

    package init(_ run: ResultsRow) {
        scenario = run.scenario
        preload = run.preload
        probeHz = run.probeHz
        scaleFactor = run.scale.factor
        var values: [SweepDimension: String] = [
            .scale: run.scale.description, .batchSize: run.batchSize, .journal: run.journalMode, .synchronous: run.synchronous,
        ]
        for (name, value) in Self.pragmas(run.pragmas) { values[.pragma(name)] = value }
        values[.decodeAhead] = run.decodeAhead
        self.values = values
    }

    /// `temp_store=memory;cache_size=-65536` as name-value pairs, in the order written.
    static func pragmas(_ text: String) -> [(name: String, value: String)] {
        text.split(separator: ";").compactMap { part in
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            return pair.count == 2 ? (pair[0], pair[1]) : nil
        }
    }

    /// The value along `dimension`; empty where the results do not record it.
    package func value(_ dimension: SweepDimension) -> String { values[dimension] ?? "" }

    /// The dimensions this identity has a value for (pragmas only where set).
    var dimensions: [SweepDimension] { values.keys.sorted() }

    /// The identity with `dimension` left open: the groups that differ only there share it.
    func opening(_ dimension: SweepDimension) -> RunIdentity {
        var open = self
        open.values[dimension] = nil
        if dimension == .scale { open.scaleFactor = 0 }
        return open
    }

    /// The identity with the probe's rate set to `rate` (empty: unprobed).
    func probed(at rate: String) -> RunIdentity {
        var probed = self
        probed.probeHz = rate
        return probed
    }

    /// Each run's identity, where a run that left the probe's column empty in a probed setting (a
    /// strategy that reads no payload or runs as a command never probes) joins the probed runs of
    /// its setting: when they all probed at one rate and no unprobed ceiling ran in that setting.
    static func identities(of runs: [ResultsRow]) -> [RunIdentity] {
        let own = runs.map(RunIdentity.init)
        var rates: [RunIdentity: Set<String>] = [:]
        for identity in own where !identity.probeHz.isEmpty { rates[identity.probed(at: ""), default: []].insert(identity.probeHz) }
        let unprobedCeilings = Set(zip(runs, own).filter { $0.0.isCeiling && $0.1.probeHz.isEmpty }.map(\.1))
        return own.map { identity in
            guard identity.probeHz.isEmpty, !unprobedCeilings.contains(identity), let found = rates[identity], found.count == 1,
                let rate = found.first
            else { return identity }
            return identity.probed(at: rate)
        }
    }

    /// Where this group's ceiling ran: the ceiling imports into an empty store, refresh or not, so its runs carry no preload.
    var ceilingIdentity: RunIdentity {
        var ceiling = self
        ceiling.preload = ""
        return ceiling
    }

    /// The payload (unless `payload` is false), then each of `dimensions` that has a value:
    /// "chat · 0.5x · batch 100 · temp_store=memory".
    package func label(_ dimensions: [SweepDimension], payload: Bool = true) -> String {
        var parts = payload ? [preload.isEmpty ? scenario : "\(scenario), refresh over \(preload)"] : []
        for dimension in dimensions {
            guard let value = values[dimension], !value.isEmpty else { continue }
            parts.append(dimension.describe(value))
        }
        if !probeHz.isEmpty { parts.append("reads probed at \(probeHz) Hz") }
        return parts.joined(separator: " · ")
    }
}
