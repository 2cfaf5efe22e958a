/// The fastest valid strategy at each value of one swept dimension, everything else held: what
/// the page says in one sentence ("prewarm is fastest up to 4x; from 16x idcache is").
package struct WinnerChange: Sendable, Equatable {
    /// One value along the dimension and its winner; nil where no strategy was valid.
    package struct Step: Sendable, Equatable {
        package let value: String
        package let winner: String?
    }

    package let dimension: SweepDimension
    /// The values of the other swept dimensions held ("batch 100"); empty when nothing else varies.
    package let held: String
    /// In the dimension's order.
    package let steps: [Step]

    /// Whether the winner differs between two of the values.
    package var changes: Bool { Set(steps.map(\.winner)).count > 1 }

    /// "At batch 100, prewarm is fastest up to 4x; from 16x idcache is."
    package var sentence: String {
        let body = dimension.isOrdered ? orderedPhrase : settingPhrase
        return (held.isEmpty ? body : "At \(held), \(body)") + "."
    }

    /// Consecutive values sharing a winner.
    private var runs: [(winner: String?, values: [String])] {
        var runs: [(winner: String?, values: [String])] = []
        for step in steps {
            if let last = runs.last, last.winner == step.winner {
                runs[runs.count - 1].values.append(step.value)
            } else {
                runs.append((step.winner, [step.value]))
            }
        }
        return runs
    }

    private func describe(_ value: String) -> String { dimension.describe(value) }

    /// "prewarm is fastest up to 4x; from 8x to 16x cache is; from 32x idcache is".
    private var orderedPhrase: String {
        let runs = self.runs
        guard runs.count > 1, let first = runs.first, let last = runs.last else { return everywhere(runs.first?.winner) }
        var parts = ["\(Self.subject(first.winner)) up to \(describe(first.values.last ?? ""))"]
        for run in runs.dropFirst().dropLast() {
            let span =
                run.values.count == 1
                ? "at \(describe(run.values[0]))" : "from \(describe(run.values[0])) to \(describe(run.values.last ?? ""))"
            parts.append("\(span) \(Self.tail(run.winner))")
        }
        parts.append("from \(describe(last.values.first ?? "")) \(Self.tail(last.winner))")
        return parts.joined(separator: "; ")
    }

    /// "prewarm is fastest with temp_store=default; upsert with temp_store=memory".
    private var settingPhrase: String {
        var order: [String?] = []
        var values: [String?: [String]] = [:]
        for step in steps {
            if values[step.winner] == nil { order.append(step.winner) }
            values[step.winner, default: []].append(describe(step.value))
        }
        guard order.count > 1 else { return everywhere(order.first ?? nil) }
        return order.enumerated().map { index, winner in
            let with = "with " + Self.list(values[winner] ?? [])
            if winner == nil { return "no strategy is valid \(with)" }
            return index == 0 ? "\(Self.subject(winner)) \(with)" : "\(winner ?? "") \(with)"
        }.joined(separator: "; ")
    }

    private func everywhere(_ winner: String?) -> String {
        let every = dimension.isOrdered ? "every \(dimension.name)" : "every \(dimension.name) value"
        return winner.map { "\($0) is fastest at \(every)" }
            ?? "no strategy is valid at any \(dimension.isOrdered ? dimension.name : "\(dimension.name) value")"
    }

    private static func subject(_ winner: String?) -> String { winner.map { "\($0) is fastest" } ?? "no strategy is valid" }

    private static func tail(_ winner: String?) -> String { winner.map { "\($0) is" } ?? "none is valid" }

    /// "a", "a and b", "a, b and c".
    static func list(_ items: [String]) -> String {
        guard items.count > 1, let last = items.last else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + last
    }

    /// The sentences for one dimension: one per held setting when the winner changes in any of
    /// them, else one saying it does not change.
    package static func sentences(_ changes: [WinnerChange]) -> [String] {
        guard let dimension = changes.first?.dimension else { return [] }
        if changes.contains(where: \.changes) { return changes.map(\.sentence) }
        let winners = changes.map { $0.steps.first?.winner }
        let every = dimension.isOrdered ? "every \(dimension.name)" : "every \(dimension.name) value"
        let opening = "The winner does not change with \(dimension.name)"
        if Set(winners).count == 1, let winner = winners.first {
            return ["\(opening): \(winner.map { "\($0) is fastest" } ?? "no strategy is valid") at \(every)."]
        }
        var order: [String?] = []
        var held: [String?: [String]] = [:]
        for (winner, change) in zip(winners, changes) {
            if held[winner] == nil { order.append(winner) }
            held[winner, default: []].append(change.held)
        }
        let each = order.enumerated().map { index, winner in
            let at = "at " + list(held[winner] ?? [])
            guard let winner else { return "no strategy is valid \(at)" }
            return index == 0 ? "\(winner) is fastest \(at)" : "\(winner) \(at)"
        }
        return ["\(opening): at \(every), \(each.joined(separator: "; "))."]
    }
}
