/// Every path one entity's mapping reads, as a tree walked once per object: each object along the
/// way is searched for all of its wanted members in one pass (`JSONMemberSet`), so a mapped
/// reader looks members up as the hand-written readers do, not path by path.
final class PathPlan {
    /// Distinct paths, numbered in the order they were added; a walk fills one token index per path.
    private(set) var paths: [JSONPath] = []
    private let root = Step()

    /// A position in the tree: the members and array positions wanted below it.
    private final class Step {
        var memberNames: [String] = []
        var memberSteps: [Step] = []
        var positions: [Int] = []
        var positionSteps: [Step] = []
        /// The path that ends here, if one does.
        var path: Int?
        var members: JSONMemberSet?
        var slots: JSONMemberSlots?
    }

    var count: Int { paths.count }

    /// The number the walk fills for `path`, added if new.
    @discardableResult
    func add(_ path: JSONPath) -> Int {
        if let existing = paths.firstIndex(of: path) { return existing }
        /// The step under `key` among `keys`, added if new.
        func next<Key: Equatable>(_ key: Key, _ keys: inout [Key], _ steps: inout [Step]) -> Step {
            if let index = keys.firstIndex(of: key) { return steps[index] }
            keys.append(key)
            steps.append(Step())
            return steps[steps.count - 1]
        }
        var step = root
        for segment in path.segments {
            switch segment {
            case .member(let name): step = next(name, &step.memberNames, &step.memberSteps)
            case .position(let position): step = next(position, &step.positions, &step.positionSteps)
            }
        }
        paths.append(path)
        step.path = paths.count - 1
        return paths.count - 1
    }

    /// Builds the member sets; call once, after the last `add`.
    func seal() {
        func seal(_ step: Step) {
            if !step.memberNames.isEmpty {
                precondition(step.memberNames.count <= 64, "more than 64 members of one object in a mapping")
                let members = JSONMemberSet(step.memberNames)
                step.members = members
                step.slots = JSONMemberSlots(for: members)
            }
            step.memberSteps.forEach(seal)
            step.positionSteps.forEach(seal)
        }
        seal(root)
    }

    /// Fills `found[path]` with the token index of each path's value in the object at `object`:
    /// -1 where it is absent, or where something on the way is absent or null. Something on the way
    /// that is neither an object (for a member) nor an array (for a position) is an error.
    func walk(_ tape: JSONTape, object: Int, into found: UnsafeMutablePointer<Int>) throws(PayloadError) {
        found.update(repeating: -1, count: paths.count)
        try walk(root, tape, object, found)
    }

    private func walk(_ step: Step, _ tape: JSONTape, _ token: Int, _ found: UnsafeMutablePointer<Int>) throws(PayloadError) {
        if let members = step.members, let slots = step.slots {
            guard tape.tokens[token].kind == .object else { throw tape.mismatch(at: token, expected: "an object") }
            try JSONObject(value: JSONValue(tape: tape, index: token)).find(members, into: slots)
            // Deeper steps have slots of their own: these stay as found while they are walked.
            for (index, next) in step.memberSteps.enumerated() {
                try visit(next, tape, slots.values[index], found)
            }
        }
        if !step.positions.isEmpty {
            guard tape.tokens[token].kind == .array else { throw tape.mismatch(at: token, expected: "an array") }
            for (index, position) in step.positions.enumerated() {
                var element = -1
                if position < Int(tape.tokens[token].count) {
                    element = token + 1
                    for _ in 0..<position { element = Int(tape.tokens[element].next) }
                }
                try visit(step.positionSteps[index], tape, element, found)
            }
        }
    }

    private func visit(_ step: Step, _ tape: JSONTape, _ token: Int, _ found: UnsafeMutablePointer<Int>) throws(PayloadError) {
        guard token >= 0 else { return }
        if let path = step.path { found[path] = token }
        guard tape.tokens[token].kind != .null else { return }
        if step.members != nil || !step.positions.isEmpty { try walk(step, tape, token, found) }
    }
}
