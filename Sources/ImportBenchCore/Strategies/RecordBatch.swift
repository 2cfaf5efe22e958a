/// A run of consecutive occurrences written in one transaction (unless the strategy asks for one per pass).
public struct RecordBatch: Sendable {
    /// 0-based position of the batch in the pass.
    public let index: Int
    public let occurrences: [RecordOccurrence]

    public init(index: Int, occurrences: [RecordOccurrence]) {
        self.index = index
        self.occurrences = occurrences
    }
}
