import ImportBenchPayload
import ImportBenchSchema
import ImportBenchStore

/// How a strategy's writes are grouped into transactions.
public enum TransactionScope: Sendable {
    /// One transaction per batch of `--batch-size` occurrences.
    case perBatch
    /// One transaction for the whole pass, whatever the batch size.
    case wholePass
    /// None of bench's: the strategy commits each batch itself, before `write` returns, on a
    /// connection of its own (a GRDB `DatabaseQueue`), and rolls it back if `write` throws.
    /// `finishPass` runs outside any transaction too. Such a strategy cannot be checkpointed.
    case strategy
}

/// What a strategy is given: the schema and the counted store, nothing else of SQLite.
public struct StrategyContext {
    /// The entities the store holds, in dependency order, with their tables' shape.
    public let schema: Schema
    /// bench's counted connection to the store, with the run's settings applied.
    public let store: StoreConnection
    /// What the run configured in its strategies by name (`--prewarm-chunk`: `keysPerFetch`).
    public let settings: StrategySettings
    /// This import's mark, written with every row and join pair (see `Schema.generationColumn`);
    /// higher than any earlier import's into the same store.
    public let generation: Int64
    /// The IDs the import's batches carry for their keys; keys a strategy reads from the store get
    /// theirs here too.
    package let interner: KeyInterner

    /// What a connection the strategy opens for itself must run first, in order, to import under
    /// the run's settings as bench's own connection does (foreign keys, synchronous, busy timeout).
    public let connectionSettings: [String]

    package init(
        schema: Schema, store: StoreConnection, settings: StrategySettings = StrategySettings(), generation: Int64 = 1,
        connectionSettings: [String] = ["PRAGMA foreign_keys = ON"]
    ) {
        self.schema = schema
        self.store = store
        self.connectionSettings = connectionSettings
        self.settings = settings
        self.generation = generation
        self.interner = KeyInterner(entityCount: schema.entities.count)
    }
}

/// What a strategy is for, which decides where `bench` lists and runs it.
package enum StrategyRole: String, Sendable {
    /// A design an app could ship; `--strategy all` runs it.
    case user
    /// The design apps start with (find-or-insert): shipped like `user` ones, and the second
    /// yardstick, as the table gives every time as a multiple of it too. "baseline" in the CSV.
    case startingPoint = "baseline"
    /// SQLite's limit for the payload's rows, which every timing is divided by (the ceiling).
    /// "reference" in the CSV, whose values stay as they were.
    case limit = "reference"
    /// A known mistake, run only by name, to show what it does to the data.
    case pitfall
    /// Not an import at all (adopting a store built ahead of time), run only by name, measured
    /// beside the imports because it is often the fastest answer.
    case alternative

    /// Whether its runs load the payload alone into an empty store, refresh or not: the limit is
    /// SQLite's cost for the payload's rows, which a preload's rows would change.
    package var loadsPayloadAlone: Bool { self == .limit }

    /// Whether the C reference replays a valid run's rows, saying how far the harness's own
    /// SQLite calls are from plain C's: only for the limit, where nothing else is measured.
    package var isReplayedInC: Bool { self == .limit }

    /// The role's name in a table, where no run of it lends its strategy's: the glossary's word
    /// (docs/internals.md), not the CSV's.
    package var title: String {
        switch self {
        case .startingPoint: return "starting point"
        case .limit: return "limit"
        default: return rawValue
        }
    }
}

/// An import strategy: what bench streams the payload through, once per pass, in batches, inside
/// transactions (its own, when its scope is `.strategy`); the strategy decides which statements to
/// run. A strategy of bench's is listed in `StrategyCatalog.builtIn`; one of a plug-in's is handed
/// to `Bench.main(strategies:)`, and is measured, counted and verified as the built-ins are: its
/// store must end up holding exactly what the payload says, refreshes included.
public protocol ImportStrategy: AnyObject {
    /// Its name on the command line and in every result: lower-case letters, digits and `-`.
    static var name: String { get }
    /// One line: what it does, for `bench list` and `--help`.
    static var summary: String { get }
    /// How many times it reads the payload (1 unless it writes objects first and relationships in
    /// a second pass, as idcache does); each pass streams every batch through `write`.
    static var passes: Int { get }

    /// Prepares everything the strategy needs: statements, caches. Called once per run, before the clock starts.
    init(context: StrategyContext) throws

    /// Who opens and commits the transactions around `write`: bench, per batch or per pass, or the
    /// strategy itself, on a connection of its own.
    var transactionScope: TransactionScope { get }

    /// Writes one batch; called inside the batch's (or the pass's) transaction, unless the scope is
    /// `.strategy`. A thrown error rolls the batch back and stops the import, which it names.
    func write(_ batch: RecordBatch, pass: Int) throws
    /// Called after the last batch of a pass, inside a transaction (the pass's own for `.wholePass`,
    /// none of bench's for `.strategy`): where a refresh removes what the payload no longer lists.
    func finishPass(_ pass: Int) throws
    /// Called instead of the passes and batches a checkpoint says are already committed, before the
    /// first `write`: a strategy that carries state between batches rebuilds it from the store.
    func resume(atPass pass: Int) throws
}

extension ImportStrategy {
    /// One pass.
    public static var passes: Int { 1 }
    /// One transaction per batch, opened and committed by bench.
    public var transactionScope: TransactionScope { .perBatch }
    /// Nothing to do after a pass.
    public func finishPass(_ pass: Int) throws {}
    /// Nothing to rebuild: for a strategy that keeps no state between batches.
    public func resume(atPass pass: Int) throws {}
}
