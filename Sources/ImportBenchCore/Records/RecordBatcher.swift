/// Cuts a reader's units into batches of exactly `batchSize` occurrences (the last may be shorter),
/// numbering each occurrence's ordinal and unit. A unit may straddle two batches, as a long channel does.
public final class RecordBatcher {
    private let reader: any RecordReader
    private let limit: Int
    private var pending: [RecordOccurrence] = []
    private var pendingStart = 0
    private var nextOrdinal = 0
    private var nextUnit = 0
    private var nextBatch = 0
    private var exhausted = false

    public init(reader: any RecordReader, batchSize: BatchSize) {
        self.reader = reader
        switch batchSize {
        case .occurrences(let count): limit = count
        case .all: limit = Int.max
        }
    }

    /// Batches handed out so far: the index the next one will have.
    public var batchesHandedOut: Int { nextBatch }

    /// Occurrences handed out so far.
    public var occurrencesRead: Int { nextOrdinal - (pending.count - pendingStart) }

    public func next() throws -> RecordBatch? {
        while pending.count - pendingStart < limit, !exhausted {
            guard let unit = try reader.nextUnit() else {
                exhausted = true
                break
            }
            append(unit)
        }
        let available = pending.count - pendingStart
        guard available > 0 else { return nil }
        let count = min(limit, available)
        let occurrences = Array(pending[pendingStart..<(pendingStart + count)])
        pendingStart += count
        if pendingStart == pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
        }
        defer { nextBatch += 1 }
        return RecordBatch(index: nextBatch, occurrences: occurrences)
    }

    private func append(_ unit: RecordUnit) {
        if pendingStart > 0 {
            pending.removeFirst(pendingStart)
            pendingStart = 0
        }
        let base = nextOrdinal
        for var occurrence in unit.occurrences {
            occurrence.ordinal = nextOrdinal
            occurrence.unit = nextUnit
            nextOrdinal += 1
            for index in occurrence.toOne.indices {
                if let local = occurrence.toOne[index]?.embeddedOrdinal { occurrence.toOne[index]?.embeddedOrdinal = base + local }
            }
            for relationship in occurrence.manyToMany.indices {
                for index in occurrence.manyToMany[relationship].indices {
                    if let local = occurrence.manyToMany[relationship][index].embeddedOrdinal {
                        occurrence.manyToMany[relationship][index].embeddedOrdinal = base + local
                    }
                }
            }
            pending.append(occurrence)
        }
        nextUnit += 1
    }
}
