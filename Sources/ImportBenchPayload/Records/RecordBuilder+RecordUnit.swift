import ImportBenchStore

extension RecordBuilder {
    /// Appends a unit of owned occurrences, numbering and interning them: the path of readers that
    /// build `RecordUnit`s. An embedded reference's unit index becomes a stream ordinal, and it takes
    /// its target's key ID when the target is what it says; otherwise its own key is interned.
    package func append(_ unit: RecordUnit) {
        beginUnit()
        let base = nextOrdinal
        var handles: [OccurrenceHandle] = []
        handles.reserveCapacity(unit.occurrences.count)
        for occurrence in unit.occurrences {
            begin(entity: occurrence.entity)
            key(occurrence.key)
            if !occurrence.listsChildren { listsNoChildren() }
            for (position, attribute) in occurrence.attributes.enumerated() {
                if occurrence.absent.contains(position) { absent() } else { value(attribute) }
            }
            for (position, reference) in occurrence.toOne.enumerated() {
                if occurrence.absent.contains(occurrence.attributes.count + position) {
                    absentReference()
                } else if let reference {
                    append(reference, base: base, unit: unit.occurrences, handles: handles)
                } else {
                    noReference()
                }
            }
            for set in occurrence.manyToMany {
                beginSet()
                for reference in set { append(reference, base: base, unit: unit.occurrences, handles: handles) }
            }
            handles.append(finish())
        }
    }

    private func append(_ reference: Reference, base: Int, unit: [RecordOccurrence], handles: [OccurrenceHandle]) {
        if let local = reference.embeddedOrdinal {
            if local >= 0, local < handles.count, unit[local].key == reference.key,
                self.reference(to: handles[local], ifEntity: unit[local].entity)
            {
                return
            }
            self.reference(key: reference.key, embeddedOrdinal: base + local)
        } else {
            self.reference(key: reference.key)
        }
    }
}
