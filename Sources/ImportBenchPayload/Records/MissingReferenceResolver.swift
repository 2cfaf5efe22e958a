import ImportBenchSchema
import ImportBenchStore

/// Applies a `MissingReferencePolicy` to another reader's records, unit by unit, so that every
/// strategy and the verifier, each reading through one of these, meet the same stream. A unit whose
/// key-only references all name known keys passes through untouched, checked by key ID alone; only
/// a unit with a missing target is copied out, changed and written again.
package final class MissingReferenceResolver: RecordReader {
    private let reader: any RecordReader
    private let policy: MissingReferencePolicy
    private let schema: Schema
    private let stored: StoredKeys?
    /// Keys by the builder's IDs on the import's path, by an interner of its own on `nextUnit()`'s.
    private var known: KnownKeys?
    /// Per target entity name: references dropped (`null`) or stubs written (`placeholder`).
    private(set) var resolvedByEntity: [String: Int] = [:]

    package init(_ reader: any RecordReader, schema: Schema, policy: MissingReferencePolicy, stored: StoredKeys?) {
        precondition(policy != .fail, "fail needs no resolver: each strategy reports the reference")
        self.reader = reader
        self.schema = schema
        self.policy = policy
        self.stored = stored
    }

    package func nextUnit() throws -> RecordUnit? {
        guard var unit = try reader.nextUnit() else { return nil }
        resolve(&unit, known: knownKeys(KeyInterner(entityCount: schema.entities.count)))
        return unit
    }

    /// Relies on the `RecordReader` contract: one call writes one unit (a skipped one discarded).
    package func readUnit(into builder: RecordBuilder) throws -> Bool {
        let units = builder.unitsBegun
        guard try reader.readUnit(into: builder) else { return false }
        precondition(builder.unitsBegun == units + 1, "a reader wrote \(builder.unitsBegun - units) units in one readUnit call")
        let known = knownKeys(builder.interner)
        if builder.unitReferencesAreKnown(known) { return true }
        var unit = builder.materializedUnit()
        builder.discardUnit()
        resolve(&unit, known: known)
        builder.append(unit)
        return true
    }

    package var skippedRecords: [String: Int] { reader.skippedRecords }
    package var skippedErrors: [PayloadError] { reader.skippedErrors }

    package var readingNotes: [String] {
        guard !resolvedByEntity.isEmpty else { return reader.readingNotes }
        let counts = resolvedByEntity.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        let note =
            switch policy {
            case .null: "missing references dropped (--missing-reference null): \(counts)"
            case .placeholder: "placeholder rows written for missing references (--missing-reference placeholder): \(counts)"
            case .fail: ""
            }
        return reader.readingNotes + [note]
    }

    /// The first interner this reader is given stays its own: one stream, one set of IDs.
    private func knownKeys(_ interner: @autoclosure () -> KeyInterner) -> KnownKeys {
        if let known { return known }
        let made = KnownKeys(interner: interner(), entityCount: schema.entities.count, stored: stored)
        known = made
        return made
    }

    /// In stream order: an occurrence's references are judged before its own key becomes known, and
    /// placeholders go before the unit's first occurrence, so a stub always precedes its referrer.
    private func resolve(_ unit: inout RecordUnit, known: KnownKeys) {
        var placeholders: [RecordOccurrence] = []
        /// Whether the reference stays: known, or now stubbed.
        func keep(_ key: StoreValue, target: Int) -> Bool {
            if known.contains(entity: target, key: key) { return true }
            resolvedByEntity[schema.entities[target].name, default: 0] += 1
            guard policy == .placeholder else { return false }
            let entity = schema.entities[target]
            var stub = RecordOccurrence(
                entity: target, key: key, attributes: Array(repeating: .null, count: entity.attributes.count),
                toOne: Array(repeating: nil, count: entity.toOne.count), manyToMany: Array(repeating: [], count: entity.manyToMany.count))
            stub.listsChildren = false
            placeholders.append(stub)
            known.insert(entity: target, key: key)
            return true
        }
        for index in unit.occurrences.indices {
            let entity = unit.occurrences[index].entity
            for (position, reference) in unit.occurrences[index].toOne.enumerated() {
                guard let reference, reference.isKeyOnly else { continue }
                if !keep(reference.key, target: schema.toOneTargets[entity][position]) { unit.occurrences[index].toOne[position] = nil }
            }
            for set in unit.occurrences[index].manyToMany.indices {
                let target = schema.manyToManyTargets[entity][set]
                unit.occurrences[index].manyToMany[set].removeAll { $0.isKeyOnly && !keep($0.key, target: target) }
            }
            known.insert(entity: entity, key: unit.occurrences[index].key)
        }
        guard !placeholders.isEmpty else { return }
        let shift = placeholders.count
        for index in unit.occurrences.indices {
            for position in unit.occurrences[index].toOne.indices {
                if let local = unit.occurrences[index].toOne[position]?.embeddedOrdinal, local >= 0 {
                    unit.occurrences[index].toOne[position]?.embeddedOrdinal = local + shift
                }
            }
            for set in unit.occurrences[index].manyToMany.indices {
                for member in unit.occurrences[index].manyToMany[set].indices {
                    if let local = unit.occurrences[index].manyToMany[set][member].embeddedOrdinal, local >= 0 {
                        unit.occurrences[index].manyToMany[set][member].embeddedOrdinal = local + shift
                    }
                }
            }
        }
        unit.occurrences.insert(contentsOf: placeholders, at: 0)
    }
}
