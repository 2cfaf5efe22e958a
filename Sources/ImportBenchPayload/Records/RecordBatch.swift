/// A run of consecutive occurrences written in one transaction (unless the strategy asks for one
/// per pass), in compact storage that strategies read in place.
public struct RecordBatch: Sendable {
    /// 0-based position of the batch in the pass.
    public let index: Int
    /// Valid while the batch lives: a strategy that keeps an occurrence past `write` keeps the batch.
    public let occurrences: BatchOccurrences
}
