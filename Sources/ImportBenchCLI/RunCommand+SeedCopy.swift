import ArgumentParser
import Foundation
import ImportBenchCore
import ImportBenchReport

/// seed-copy in `bench run`: adopting a store built ahead of time, measured beside the imports.
extension RunCommand {
    static var alternativesHelp: String {
        let names = BenchCommand.catalog.alternatives.map { $0.name }.joined(separator: ", ")
        return "\(names), run only by name, which imports nothing: it adopts a store built ahead of time (see --seed-db)"
    }

    static let seedDBHelp = """
        The store --strategy seed-copy adopts, built by bench seed-db from the same payload (its scenario and \
        payload fingerprint must match the run's; the error gives the seed-db command that builds a matching one). \
        Without it, bench builds one from the payload first, untimed, and the header says what that cost. \
        seed-copy's time is copying the file (and its -wal, never its -shm) to a temporary name beside the store, \
        PRAGMA quick_check and the metadata check, the rename into place, and opening it with --journal and \
        --synchronous; its data is then verified like every strategy's. seed-copy cannot be combined with \
        --preload: adopting a seed replaces the store, so there is no refresh to measure.
        """

    /// The names of the methods that adopt a seed store, for messages.
    static var adopterNames: String { BenchCommand.catalog.known.filter(\.adoptsSeedStore).map(\.name).joined(separator: ", ") }

    func validateSeedCopy() throws {
        if let seedDB {
            guard resolvedStrategies.contains(where: \.adoptsSeedStore) else {
                let adopter = Self.adopterNames
                throw ValidationError(
                    "--seed-db is the store \(adopter) adopts: add --strategy \(adopter) (for example --strategy prewarm,\(adopter))")
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: seedDB, isDirectory: &isDirectory), !isDirectory.boolValue else {
                throw ValidationError(
                    "--seed-db \(seedDB): no such file; build one with bench seed-db --scenario \(scenarioOptions.scenario) --scale \(scenarioOptions.scale) --out \(seedDB)"
                )
            }
        }
    }

    /// `strategies` with those that adopt a seed store given `--seed-db`, when it is given.
    func adoptingSeedDB(_ strategies: [ImportMethod]) -> [ImportMethod] {
        guard let seedDB else { return strategies }
        return strategies.map { $0.adoptsSeedStore ? $0.adopting(seedDB) : $0 }
    }
}
