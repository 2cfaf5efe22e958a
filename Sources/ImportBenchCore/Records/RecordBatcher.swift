/// Cuts a reader's units into batches of exactly `batchSize` occurrences (the last may be shorter),
/// numbering each occurrence's ordinal and unit and giving every key its ID in `interner`. A unit
/// may straddle two batches, as a long channel does.
public final class RecordBatcher {
    private let reader: any RecordReader
    private let limit: Int
    /// Where keys get their IDs: shared by every pass of one import.
    public let interner: KeyInterner
    private let toOneTargets: [[Int]]
    private let manyToManyTargets: [[Int]]
    private var pending: [RecordOccurrence] = []
    private var pendingStart = 0
    private var nextOrdinal = 0
    private var nextUnit = 0
    private var nextBatch = 0
    private var exhausted = false

    public init(reader: any RecordReader, batchSize: BatchSize, schema: Schema, interner: KeyInterner? = nil) {
        self.reader = reader
        self.interner = interner ?? KeyInterner(entityCount: schema.entities.count)
        toOneTargets = schema.toOneTargets
        manyToManyTargets = schema.manyToManyTargets
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
        // Where the unit's occurrences start in `pending`: an embedded reference takes its target's ID from there.
        let start = pending.count
        pending.reserveCapacity(start + unit.occurrences.count)
        for var occurrence in unit.occurrences {
            occurrence.ordinal = nextOrdinal
            occurrence.unit = nextUnit
            occurrence.keyID = interner.id(entity: occurrence.entity, key: occurrence.key)
            nextOrdinal += 1
            let toOne = toOneTargets[occurrence.entity]
            for index in occurrence.toOne.indices {
                guard var reference = occurrence.toOne[index] else { continue }
                intern(&reference, target: toOne[index], base: base, start: start)
                occurrence.toOne[index] = reference
            }
            let manyToMany = manyToManyTargets[occurrence.entity]
            for relationship in occurrence.manyToMany.indices {
                for index in occurrence.manyToMany[relationship].indices {
                    intern(&occurrence.manyToMany[relationship][index], target: manyToMany[relationship], base: base, start: start)
                }
            }
            pending.append(occurrence)
        }
        nextUnit += 1
    }

    /// Turns an embedded reference's index within the unit into a stream ordinal, and gives the
    /// reference its key's ID: the embedded target's, already interned, or the interner's.
    @inline(__always)
    private func intern(_ reference: inout Reference, target: Int, base: Int, start: Int) {
        if let local = reference.embeddedOrdinal {
            reference.embeddedOrdinal = base + local
            let embedded = start + local
            if embedded < pending.count, pending[embedded].entity == target, pending[embedded].key == reference.key {
                reference.keyID = pending[embedded].keyID
                return
            }
        }
        reference.keyID = interner.id(entity: target, key: reference.key)
    }
}
