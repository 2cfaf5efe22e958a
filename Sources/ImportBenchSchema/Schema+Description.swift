/// What an importer written outside bench must write (`bench schema`): the store's tables as a
/// reader takes them in, the rules the verifier holds every strategy to, and the SQL bench runs to
/// create the store before the importer starts.
extension Schema {
    /// The readable summary: per entity its table, natural key, columns and relationships.
    package var storeSummary: String {
        var lines = [
            "schema \(name): \(entities.count) entit\(entities.count == 1 ? "y" : "ies"), in dependency order (a relationship's target comes first)",
            "",
        ]
        for (index, entity) in entities.enumerated() {
            lines.append("\(entity.name)  (table \(entity.table))")
            lines.append("  pk INTEGER PRIMARY KEY: the row's id, yours to choose")
            lines.append("  \(entity.key.name) \(entity.key.type.rawValue): the natural key, unique; occurrences name the object by it")
            for attribute in entity.attributes {
                lines.append("  \(attribute.name) \(attribute.type.rawValue)" + (attribute.type == .boolean ? " (0 or 1)" : ""))
            }
            for (position, relationship) in entity.toOne.enumerated() {
                let target = entities[toOneTargets[index][position]]
                var line = "  \(relationship.column) -> \(target.name).pk: to-one \(relationship.name)"
                if relationship.owner {
                    line +=
                        relationship.listing == .complete
                        ? "; owned: a \(target.name) that lists its children lists all of them, so a refresh deletes the ones it no longer lists"
                        : "; owned, listed partially (a page): a refresh keeps children the payload does not list"
                }
                lines.append(line)
            }
            for (position, relationship) in entity.manyToMany.enumerated() {
                let target = entities[manyToManyTargets[index][position]]
                lines.append(
                    "  set \(relationship.name) -> \(target.name): table \(quoted(entity.joinTable(relationship))) (source_pk, target_pk), "
                        + (relationship.listing == .complete
                            ? "the union of the object's occurrences; a refresh replaces the stored set where the payload lists it"
                            : "listed partially: only ever added to"))
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// The rules every strategy's store is verified against, as the verifier applies them.
    package static let storeRules = """
        Rules the verifier holds every importer to (bench digests the tables above, by natural key):
        - The last occurrence of an object in the payload wins, for its columns and its to-one references;
          a member the occurrence leaves out is NULL.
        - A to-one reference holds the pk of the target's row, found by the target's natural key.
        - A set is the union of its object's occurrences. On a refresh (a store preloaded with an earlier
          payload), an object that lists its set replaces the stored one, and an owner that lists its
          children deletes the stored children it no longer lists; an embedded copy that does not list
          them (a quoted message) replaces nothing.
        - A reference to an object that is neither stored nor earlier in the payload is an error.
        - A natural key composed of other values (chat's reaction: <message id>/<user id>/<type>) is
          composed as the mapping says (key: {compose: ...}; a built-in's is Scenarios/<name>/mapping.yml).
        - \(generationColumn) and \(listedColumn) are bench's own bookkeeping: a command may leave them at
          their default (0); the verifier does not read them.
        """
}
