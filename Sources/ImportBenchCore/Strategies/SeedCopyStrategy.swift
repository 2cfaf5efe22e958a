/// Not an import: the app ships (or downloads) a store `bench seed-db` built ahead of time and
/// adopts a copy of it. `ImportRun` measures that adoption (copy, open, settings, integrity check)
/// instead of streaming the payload, so it appears in the same table, CSV and digest check.
public final class SeedCopyStrategy: ImportStrategy {
    public static let name = "seed-copy"
    public static let summary = "adopt a store built ahead of time (bench seed-db): copy it, open it, check it; no import"
    public static let role = StrategyRole.alternative

    public init(context: StrategyContext) throws {}

    /// Never called: `ImportRun` adopts the seed store instead of handing out batches.
    public func write(_ batch: RecordBatch, pass: Int) throws {
        throw ImportError.invalidRequest("\(Self.name) imports no batches: it adopts a seed store instead")
    }
}
