/// Cuts a reader's units into batches of exactly `batchSize` occurrences (the last may be shorter),
/// numbering each occurrence's ordinal and unit and giving every key its ID in `interner`. A unit
/// may straddle two batches, as a long channel does.
public final class RecordBatcher {
    private let reader: any RecordReader
    private let limit: Int
    /// Where keys get their IDs: shared by every pass of one import.
    private let interner: KeyInterner
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
        let occurrences: [RecordOccurrence]
        if pendingStart == 0, count == pending.count {
            // The batch is everything queued (always so with --batch-size all): hand it over, no copy.
            occurrences = pending
            pending = []
        } else {
            occurrences = Array(pending[pendingStart..<(pendingStart + count)])
            pendingStart += count
            if pendingStart == pending.count {
                pending.removeAll(keepingCapacity: true)
                pendingStart = 0
            }
        }
        defer { nextBatch += 1 }
        return RecordBatch(index: nextBatch, occurrences: occurrences)
    }

    /// Numbers the unit's occurrences and interns their keys in place (the unit is consumed, so its
    /// arrays are not copied), then queues them.
    private func append(_ unit: consuming RecordUnit) {
        if pendingStart > 0 {
            pending.removeFirst(pendingStart)
            pendingStart = 0
        }
        let base = nextOrdinal
        // Taken out of the unit, so the array is uniquely held and edits below do not copy it.
        var occurrences: [RecordOccurrence] = []
        swap(&occurrences, &unit.occurrences)
        for position in occurrences.indices {
            occurrences[position].ordinal = nextOrdinal
            occurrences[position].unit = nextUnit
            occurrences[position].keyID = interner.id(entity: occurrences[position].entity, key: occurrences[position].key)
            nextOrdinal += 1
            let entity = occurrences[position].entity
            let toOne = toOneTargets[entity]
            for index in occurrences[position].toOne.indices {
                guard var reference = occurrences[position].toOne[index] else { continue }
                intern(&reference, target: toOne[index], base: base, in: occurrences)
                occurrences[position].toOne[index] = reference
            }
            let manyToMany = manyToManyTargets[entity]
            for relationship in occurrences[position].manyToMany.indices {
                for index in occurrences[position].manyToMany[relationship].indices {
                    var reference = occurrences[position].manyToMany[relationship][index]
                    intern(&reference, target: manyToMany[relationship], base: base, in: occurrences)
                    occurrences[position].manyToMany[relationship][index] = reference
                }
            }
        }
        if pending.isEmpty {
            pending = occurrences
        } else {
            pending.append(contentsOf: occurrences)
        }
        nextUnit += 1
    }

    /// Turns an embedded reference's index within the unit into a stream ordinal, and gives the
    /// reference its key's ID: the embedded target's, already interned, or the interner's.
    @inline(__always)
    private func intern(_ reference: inout Reference, target: Int, base: Int, in unit: [RecordOccurrence]) {
        if let local = reference.embeddedOrdinal {
            reference.embeddedOrdinal = base + local
            if local < unit.count, unit[local].entity == target, unit[local].keyID >= 0, unit[local].key == reference.key {
                reference.keyID = unit[local].keyID
                return
            }
        }
        reference.keyID = interner.id(entity: target, key: reference.key)
    }
}
