import ImportBenchPayload

extension UniqueObjects {
    /// An object's many-to-many sets with each target once, in order of first appearance: the
    /// merged union of its occurrences when it occurred more than once, else its one occurrence's
    /// sets read in place, a repeated target skipped as it comes. Nothing is allocated for an
    /// object that occurred once, which most do.
    struct DistinctSets: RandomAccessCollection {
        let merged: [[BatchReference]]?
        let sets: BatchSets

        var startIndex: Int { 0 }
        var endIndex: Int { merged?.count ?? sets.count }

        subscript(position: Int) -> DistinctReferences {
            if let merged { return DistinctReferences(merged: merged[position], references: nil) }
            return DistinctReferences(merged: nil, references: sets[position])
        }
    }

    /// One set's distinct targets.
    struct DistinctReferences: Sequence {
        let merged: [BatchReference]?
        let references: BatchReferences?

        struct Iterator: IteratorProtocol {
            let merged: [BatchReference]?
            let references: BatchReferences?
            var position = 0

            mutating func next() -> BatchReference? {
                if let merged {
                    guard position < merged.count else { return nil }
                    defer { position += 1 }
                    return merged[position]
                }
                guard let references else { return nil }
                while position < references.count {
                    let candidate = references[position]
                    let earlier = position
                    position += 1
                    // Sets are small (a message's mentions, a channel's members): a look back is cheaper than a hash.
                    if !(0..<earlier).contains(where: { references[$0].keyID == candidate.keyID }) { return candidate }
                }
                return nil
            }
        }

        func makeIterator() -> Iterator { Iterator(merged: merged, references: references) }
    }

    /// Distinct target references per many-to-many relationship, in order of first appearance.
    func manyToMany(_ object: Object) -> DistinctSets {
        DistinctSets(merged: object.merged >= 0 ? mergedSets[Int(object.merged)] : nil, sets: occurrence(object).manyToMany)
    }
}
