/// Whether runs imported into an empty store or over one already holding an earlier payload: an
/// app's first launch and every launch after it are different questions, with different winners.
/// Known from the results' preload alone, never from a strategy's name.
package enum ImportKind: String, Sendable, CaseIterable {
    /// Runs without a preload, into an empty store (where the ceiling always runs).
    case firstImport = "first import"
    /// Runs with a preload: a second import over a store already holding an earlier payload.
    case refresh

    /// The kind a group's runs are, by its payload's preload.
    init(_ identity: RunIdentity) { self = identity.preload.isEmpty ? .firstImport : .refresh }

    /// How a sentence opens with it: "First import", "Refresh".
    var heading: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}

/// The fastest valid strategy for one kind of import of one scenario, over every setting the results
/// hold of it, so a reader learns the first import's answer and the refresh's apart. The winner is
/// one of the groups' ranked winners: never the ceiling (a yardstick, not ranked), never an invalid
/// run, and for a refresh only a strategy that ran over the preload.
package struct ImportKindAnswer: Sendable, Equatable {
    /// The payload answered: each scenario's winners are its own.
    package let scenario: String
    /// A first import or a refresh, by the groups' preload.
    package let kind: ImportKind
    /// The fastest valid strategy in the group where it came closest to its ceiling (the only
    /// group, or any when none has a ceiling and all groups agree); nil when there is none to name.
    package let winner: StrategyStanding?
    /// The group `winner` won, whose setting the sentence names when the kind has several.
    package let identity: RunIdentity?
    /// Each group's winner, in page order, when no ceiling ran to weigh settings against each other
    /// and they disagree: the sentence lists them instead of naming one.
    package let winnersBySetting: [String]
    /// How many groups (payload and setting) the kind has.
    package let groupCount: Int
    /// Whether the kind's groups refreshed over more than one preload, so the sentence says which.
    package let preloadsVary: Bool

    /// `groups` are all of one scenario and kind, in page order.
    init(scenario: String, kind: ImportKind, groups: [AnswerGroup]) {
        self.scenario = scenario
        self.kind = kind
        groupCount = groups.count
        preloadsVary = Set(groups.map(\.identity.preload)).count > 1
        let won = groups.compactMap { group in group.fastest.map { (group.identity, $0) } }
        let measured = won.filter { $0.1.multipleOfCeiling != nil }
        let names = won.map(\.1.strategy).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        var best = measured.min { ($0.1.multipleOfCeiling ?? 0) < ($1.1.multipleOfCeiling ?? 0) }
        if best == nil, names.count == 1 { best = won.first }
        winner = best?.1
        identity = best?.0
        winnersBySetting = best == nil && names.count > 1 ? names : []
    }

    /// One answer per scenario and kind of import the groups hold, in page order (a scenario's
    /// first import before its refresh, as the groups are sorted).
    static func answers(_ groups: [AnswerGroup]) -> [ImportKindAnswer] {
        var keys: [String] = []
        var members: [String: (scenario: String, kind: ImportKind, groups: [AnswerGroup])] = [:]
        for group in groups {
            let kind = ImportKind(group.identity)
            let key = "\(group.identity.scenario)\u{1F}\(kind.rawValue)"
            if members[key] == nil { keys.append(key) }
            members[key, default: (group.identity.scenario, kind, [])].groups.append(group)
        }
        return keys.compactMap { members[$0] }.map { ImportKindAnswer(scenario: $0.scenario, kind: $0.kind, groups: $0.groups) }
    }

    /// "First import: prewarm, 1.14× the ceiling." with the group's setting where the kind has
    /// several, and the scenario where the results hold several. `swept` names the setting.
    func sentence(swept: [SweepDimension], scenarios: Int) -> String {
        let opening = kind.heading + (scenarios > 1 ? " of \(scenario)" : "") + ": "
        guard let winner else {
            if winnersBySetting.isEmpty { return opening + "no strategy is valid." }
            return opening + "the fastest differs by setting (\(WinnerChange.list(winnersBySetting))), "
                + "and no ceiling ran to weigh the settings against each other."
        }
        var text = opening + winner.strategy
        if let multiple = winner.multipleOfCeiling {
            text += String(format: ", %.2f× the ceiling", multiple) + (kind == .refresh ? " of a first import" : "")
        } else {
            text += ", with no ceiling to measure it by"
        }
        let setting = groupCount > 1 ? identity?.label(swept, payload: false) ?? "" : ""
        let preload = preloadsVary ? identity.map { "over \($0.preload)" } : nil
        let at = [setting.isEmpty ? nil : "at \(setting)", preload].compactMap { $0 }.joined(separator: ", ")
        return text + (at.isEmpty ? "" : ", \(at)") + "."
    }
}
