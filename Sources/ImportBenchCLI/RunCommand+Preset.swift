import ArgumentParser

/// `--preset` in `bench run`: the preset fixes what its runs import and how, so an option that
/// would change that is refused rather than silently ignored.
extension RunCommand {
    /// The options given that a preset's runs would ignore, as the command line spells them. What
    /// the preset picks differently from the defaults (scenario, scale, batch size) counts whenever
    /// given; the rest is compared with its value when not given, which is the preset's too.
    func optionsIgnoredByPreset() throws -> [String] {
        let unset = try RunCommand.parse([])
        func differs<T>(_ value: T, _ other: T) -> Bool { String(describing: value) != String(describing: other) }
        let options: [(String, Bool)] = [
            ("--scenario", scenarioOptions.givenScenario != nil),
            ("--mapping", scenarioOptions.mapping != nil),
            ("--from", scenarioOptions.from != nil),
            ("--scale", scenarioOptions.givenScale != nil),
            ("--growth", growth != nil),
            ("--seed", scenarioOptions.seed != unset.scenarioOptions.seed),
            ("--payload", payload != nil),
            ("--preload", preload != nil),
            ("--strategy", resolvedStrategies.map(\.name) != unset.resolvedStrategies.map(\.name)),
            ("--batch-size", givenBatchSizes != nil),
            ("--pragma", !pragma.isEmpty),
            ("--decode-ahead", givenDecodeAhead != nil),
            ("--prewarm-chunk", prewarmChunk != unset.prewarmChunk),
            ("--checkpoint", checkpoint),
            ("--resume", resume),
            ("--restart", restart),
            ("--on-error", differs(onError, unset.onError)),
            ("--journal", differs(journal, unset.journal)),
            ("--synchronous", differs(synchronous, unset.synchronous)),
            ("--probe-reads", probeReads != nil),
            ("--seed-db", seedDB != nil),
            ("--db", db != nil),
            ("--encoding", differs(readingOptions.encoding, unset.readingOptions.encoding)),
            ("--missing-reference", differs(readingOptions.missingReference, unset.readingOptions.missingReference)),
            ("the --max-...-bytes limits", differs(readingOptions.limits, unset.readingOptions.limits)),
        ]
        return options.filter(\.1).map(\.0)
    }

    /// Refuses the options a preset would ignore, naming them and what to do.
    func validatePreset() throws {
        guard let preset else { return }
        let ignored = try optionsIgnoredByPreset()
        guard ignored.isEmpty else {
            throw ValidationError(
                "--preset \(preset.rawValue) fixes what its runs import and how (scenarios, scales, batch sizes, strategies, store "
                    + "settings), so \(ignored.joined(separator: ", ")) would be ignored: drop \(ignored.count == 1 ? "it" : "them"), "
                    + "or drop --preset to run your own matrix (--repetitions, --warmup, --count-at, --csv, --format, --quiet and "
                    + "--no-isolate apply to a preset)")
        }
    }
}
