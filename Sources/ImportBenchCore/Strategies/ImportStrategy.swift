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

    public init(schema: Schema, store: Connection, prewarmChunkSize: Int = 500) {
        self.schema = schema
        self.store = store
        self.prewarmChunkSize = max(1, min(prewarmChunkSize, store.variableLimit))
    }
}

/// An import strategy. The runner streams the payload through `write` once per pass, in batches,
/// inside transactions; the strategy decides which statements to run. Adding a strategy means one
/// type conforming to this protocol and one line in `StrategyRegistry`.
public protocol ImportStrategy: AnyObject {
    /// The name used on the command line and in results.
    static var name: String { get }
    /// One line: what it does, for `--help` and `bench list`.
    static var summary: String { get }
    /// False for reference strategies that a user would not ship (the ceiling).
    static var isUserStrategy: Bool { get }

    init(context: StrategyContext) throws

    /// How many times the payload is streamed through `write`.
    var passes: Int { get }
    var transactionScope: TransactionScope { get }

    /// Writes one batch; called inside the batch's (or the pass's) transaction.
    func write(_ batch: RecordBatch, pass: Int) throws
    /// Called after the last batch of a pass; inside the pass's transaction for `.wholePass`.
    func finishPass(_ pass: Int) throws
}

extension ImportStrategy {
    public static var isUserStrategy: Bool { true }
    public var passes: Int { 1 }
    public var transactionScope: TransactionScope { .perBatch }
    public func finishPass(_ pass: Int) throws {}
}
