import ImportBenchSchema

/// Cuts a reader's units into batches of exactly `batchSize` occurrences (the last may be shorter).
/// The reader writes straight into the batcher's `RecordBuilder`, which numbers every occurrence's
/// ordinal and unit and gives every key its ID in `interner`. A unit may straddle two batches, as a
/// long channel does.
package final class RecordBatcher {
    private let reader: any RecordReader
    private let limit: Int
    private let builder: RecordBuilder
    private var nextBatch = 0
    private var exhausted = false

    /// Occurrences after which a batch still filling is sealed as a part (`RecordBuilder.sealPart`):
    /// large enough that a batch of a few thousand never is, small enough that a batch of the whole
    /// payload grows by parts rather than by copying. 16,384 chat occurrences are about 4.5 MB of records.
    package static let defaultPartSize = 16_384
    private let partSize: Int

    package init(
        reader: any RecordReader, batchSize: BatchSize, schema: Schema, interner: KeyInterner? = nil, partSize: Int = defaultPartSize
    ) {
        self.reader = reader
        self.partSize = max(partSize, 1)
        builder = RecordBuilder(schema: schema, interner: interner ?? KeyInterner(entityCount: schema.entities.count))
        switch batchSize {
        case .occurrences(let count): limit = count
        case .all: limit = Int.max
        }
    }

    /// The interner every key read gets its ID from.
    package var interner: KeyInterner { builder.interner }

    /// Batches handed out so far: the index the next one will have.
    package var batchesHandedOut: Int { nextBatch }

    /// Occurrences handed out so far.
    package var occurrencesRead: Int { builder.nextOrdinal - builder.count }

    package func next() throws -> RecordBatch? {
        while builder.count < limit, !exhausted {
            if try !reader.readUnit(into: builder) {
                exhausted = true
            } else if builder.unsealedCount >= partSize, builder.count < limit {
                builder.sealPart()
            }
        }
        guard builder.count > 0 else { return nil }
        defer { nextBatch += 1 }
        return builder.cut(first: min(limit, builder.count), index: nextBatch)
    }
}
