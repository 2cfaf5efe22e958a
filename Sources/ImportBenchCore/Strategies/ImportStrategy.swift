import ImportBenchStore

/// How a strategy's writes are grouped into transactions.
public enum TransactionScope: Sendable {
    /// One transaction per batch of `--batch-size` occurrences.
    case perBatch
    /// One transaction for the whole pass, whatever the batch size.
    case wholePass
}

/// What a strategy is given: the schema and the counted store, nothing else of SQLite.
public struct StrategyContext {
    public let schema: Schema
    public let store: Connection
    /// Keys per `SELECT ... WHERE key IN (...)`; never above SQLite's variable limit.
    public let prewarmChunkSize: Int
    /// This import's mark, written with every row and join pair (see `Schema.generationColumn`);
    /// higher than any earlier import's into the same store.
    public let generation: Int64
    /// The IDs the import's batches carry for their keys; keys a strategy reads from the store get
    /// theirs here too.
    public let interner: KeyInterner

    public init(schema: Schema, store: Connection, prewarmChunkSize: Int = 500, generation: Int64 = 1) {
        self.schema = schema
        self.store = store
        self.prewarmChunkSize = max(1, min(prewarmChunkSize, store.variableLimit))
        self.generation = generation
        self.interner = KeyInterner(entityCount: schema.entities.count)
    }
}

/// What a strategy is for, which decides where `bench` lists and runs it.
public enum StrategyRole: String, Sendable {
    /// A design an app could ship; `--strategy all` runs it.
    case user
    /// The design apps start with (find-or-insert): shipped like `user` ones, and the second
    /// yardstick, as the table gives every time as a multiple of it too.
    case baseline
    /// The physical reference every timing is divided by.
    case reference
    /// A known mistake, run only by name, to show what it does to the data.
    case pitfall
    /// Not an import at all (adopting a store built ahead of time), run only by name, measured
    /// beside the imports because it is often the fastest answer.
    case alternative
}

/// An import strategy: the measured method that streams the payload through `write` once per
/// pass, in batches, inside transactions; the strategy decides which statements to run. Adding a
/// strategy means one type conforming to this protocol and one line in `StrategyRegistry`.
public protocol ImportStrategy: AnyObject, MeasuredMethod {
    init(context: StrategyContext) throws

    var transactionScope: TransactionScope { get }

    /// Writes one batch; called inside the batch's (or the pass's) transaction.
    func write(_ batch: RecordBatch, pass: Int) throws
    /// Called after the last batch of a pass, inside a transaction (the pass's own for `.wholePass`).
    func finishPass(_ pass: Int) throws
    /// Called instead of the passes and batches a checkpoint says are already committed, before the
    /// first `write`: a strategy that carries state between batches rebuilds it from the store.
    func resume(atPass pass: Int) throws
}

extension ImportStrategy {
    /// Streams the payload through a new instance, batch by batch (`ImportRun.importBatches`).
    public static func measure(_ run: ImportRun, progress: ((Int) -> Void)?) throws -> ImportMeasurement {
        try run.importBatches(with: Self.self, progress: progress)
    }

    public var transactionScope: TransactionScope { .perBatch }
    public func finishPass(_ pass: Int) throws {}
    public func resume(atPass pass: Int) throws {}
}
