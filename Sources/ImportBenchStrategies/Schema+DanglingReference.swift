import ImportBenchPayload
import ImportBenchSchema
import ImportBenchStore

extension Schema {
    /// The error a strategy throws when `occurrence` names an object of entity `target` by `targetKey`, and that object is neither in the store nor earlier in the payload:
    /// bench reports it as it reports its own strategies' (source, relationship and both keys named,
    /// and what `--missing-reference` would do), so a plug-in needs no error type of its own for it.
    public func danglingReference(from occurrence: BatchOccurrence, to targetID: EntityID, key targetKey: String) -> any Error {
        let entity = occurrence.entityIndex
        let target = targetID.index
        for (index, reference) in occurrence.toOne.enumerated() where toOneTargets[entity][index] == target {
            if let reference, reference.key.string == targetKey { return StrategyError.dangling(occurrence, toOne: index, in: self) }
        }
        let sets = occurrence.manyToMany
        for index in sets.indices where manyToManyTargets[entity][index] == target {
            if let member = sets[index].first(where: { $0.key.string == targetKey }) {
                return StrategyError.dangling(occurrence, manyToMany: index, targetKey: member.key, in: self)
            }
        }
        // A key the occurrence does not hold: named with the first relationship to that entity.
        let relationship =
            entities[entity].toOne.first { $0.target == entities[target].name }?.name
            ?? entities[entity].manyToMany.first { $0.target == entities[target].name }?.name ?? entities[target].name
        return StrategyError.danglingReference(
            source: entities[entity].name, sourceKey: occurrence.key.storeValue, relationship: relationship,
            target: entities[target].name, targetKey: .text(targetKey))
    }

}
