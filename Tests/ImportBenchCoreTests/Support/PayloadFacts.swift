import ImportBenchCore
import ImportBenchPayload
import ImportBenchSchema
import ImportBenchStore

/// Counts computed straight from a payload's records, independently of any strategy's code:
/// what each strategy's fetch count must equal.
struct PayloadFacts {
    let occurrences: [RecordOccurrence]
    let schema: Schema

    init(reader: any RecordReader, schema: Schema) throws {
        var occurrences: [RecordOccurrence] = []
        while let unit = try reader.nextUnit() { occurrences += unit.occurrences }
        self.occurrences = occurrences
        self.schema = schema
    }

    /// Every (target entity, key) an occurrence names through a relationship, with whether it was key-only.
    private func references(of occurrence: RecordOccurrence) -> [(entity: Int, key: StoreValue, keyOnly: Bool)] {
        let entity = schema.entities[occurrence.entity]
        var found: [(Int, StoreValue, Bool)] = []
        for (index, reference) in occurrence.toOne.enumerated() {
            guard let reference else { continue }
            found.append((schema.index(of: entity.toOne[index].target) ?? -1, reference.key, reference.embeddedOrdinal == nil))
        }
        for (index, references) in occurrence.manyToMany.enumerated() {
            for reference in references {
                found.append((schema.index(of: entity.manyToMany[index].target) ?? -1, reference.key, reference.embeddedOrdinal == nil))
            }
        }
        return found
    }

    var keyOnlyReferences: Int {
        occurrences.reduce(0) { $0 + references(of: $1).filter(\.keyOnly).count }
    }

    /// naive: one SELECT per occurrence and one per reference given by key only.
    var naiveFetches: Int { occurrences.count + keyOnlyReferences }

    /// cache: one SELECT per distinct (entity, key) met as an occurrence or a reference.
    var cacheFetches: Int {
        var met = Set<String>()
        for occurrence in occurrences {
            met.insert("\(occurrence.entity)|\(occurrence.key)")
            for reference in references(of: occurrence) { met.insert("\(reference.entity)|\(reference.key)") }
        }
        return met.count
    }

    /// prewarm: per batch, per entity, ceil(distinct keys named / chunk).
    func prewarmFetches(batchSize: Int, chunk: Int) -> Int {
        stride(from: 0, to: occurrences.count, by: batchSize).reduce(0) { total, start in
            let batch = occurrences[start..<min(start + batchSize, occurrences.count)]
            var keys = Array(repeating: Set<StoreValue>(), count: schema.entities.count)
            for occurrence in batch {
                keys[occurrence.entity].insert(occurrence.key)
                for reference in references(of: occurrence) { keys[reference.entity].insert(reference.key) }
            }
            return total + keys.reduce(0) { $0 + ($1.count + chunk - 1) / chunk }
        }
    }

    var uniqueObjects: Int {
        Set(occurrences.map { "\($0.entity)|\($0.key)" }).count
    }
}
