/// Every path one entity's mapping reads, gathered into a tree (`add`), then sealed into a
/// `PathWalk` that reads them all in one walk per object.
final class PathPlan {
    /// Distinct paths, numbered in the order they were added; a walk fills one token index per path.
    private(set) var paths: [JSONPath] = []
    /// Each path's number: found by hashing, so adding a mapping's paths takes time linear in them
    /// (a search of `paths` per path made 22,000 attributes take seconds).
    private var numbers: [JSONPath: Int] = [:]
    private let root = Step()
    /// Paths the walk does not find, which the frame's opener fills: the value itself (`.`) and
    /// the element's member name (`@key`).
    private(set) var itselfPaths: [Int] = []
    private(set) var memberNamePaths: [Int] = []

    /// A position in the tree: the members and array positions wanted below it.
    fileprivate final class Step {
        var memberNames: [String] = []
        var memberSteps: [Step] = []
        var positions: [Int] = []
        var positionSteps: [Step] = []
        /// Where each member name and position is in the lists above.
        var memberIndexes: [String: Int] = [:]
        var positionIndexes: [Int: Int] = [:]
        /// The path that ends here, if one does.
        var path: Int?
    }

    /// The number the walk fills for `path`, added if new.
    @discardableResult
    func add(_ path: JSONPath) -> Int {
        if let existing = numbers[path] { return existing }
        numbers[path] = paths.count
        if path.isElementItself || path == .memberName {
            paths.append(path)
            if path.isElementItself { itselfPaths.append(paths.count - 1) } else { memberNamePaths.append(paths.count - 1) }
            return paths.count - 1
        }
        /// The step under `key` among `keys`, added if new.
        func next<Key: Hashable>(_ key: Key, _ keys: inout [Key], _ indexes: inout [Key: Int], _ steps: inout [Step]) -> Step {
            if let index = indexes[key] { return steps[index] }
            indexes[key] = keys.count
            keys.append(key)
            steps.append(Step())
            return steps[steps.count - 1]
        }
        var step = root
        for segment in path.segments {
            switch segment {
            case .member(let name): step = next(name, &step.memberNames, &step.memberIndexes, &step.memberSteps)
            case .position(let position): step = next(position, &step.positions, &step.positionIndexes, &step.positionSteps)
            }
        }
        paths.append(path)
        step.path = paths.count - 1
        return paths.count - 1
    }

    /// The walk of every path added so far.
    func sealed() -> PathWalk {
        PathWalk(paths: paths, root: root, itselfPaths: itselfPaths, memberNamePaths: memberNamePaths)
    }
}

/// A `PathPlan`'s tree laid out flat, read-only: each object along the way is searched for all of
/// its wanted members in one pass (`JSONMemberSet`), so a mapped reader looks members up as the
/// hand-written readers do, not path by path. Steps, member tables and slots are plain values and
/// pointers: walked as a tree of objects, reference counting and exclusivity checks on its nodes
/// took a third of a mapped reader's time.
final class PathWalk {
    let paths: [JSONPath]
    let count: Int
    /// The paths that are the walked value itself (`.`), and its member name (`@key`).
    let itselfPaths: [Int]
    let memberNamePaths: [Int]

    private struct Step: BitwiseCopyable {
        /// The path that ends here, or -1.
        var path: Int
        /// The members wanted of the object here, and where their value indexes go, if any are.
        var members: JSONMemberTable?
        var slots: Int
        /// The steps under its members, in the table's order, from `children[firstMember]`.
        var firstMember: Int
        var memberCount: Int
        /// The array positions wanted, with their steps, from `positions[firstPosition]` and
        /// `children[firstPositionChild]`.
        var firstPosition: Int
        var firstPositionChild: Int
        var positionCount: Int
    }

    private let steps: UnsafeMutablePointer<Step>
    private let children: UnsafeMutablePointer<Int>
    private let positions: UnsafeMutablePointer<Int>
    private let slots: UnsafeMutablePointer<Int>
    /// Owns the buffers the steps' tables point into.
    private let memberSets: [JSONMemberSet]

    fileprivate init(paths: [JSONPath], root: PathPlan.Step, itselfPaths: [Int], memberNamePaths: [Int]) {
        self.paths = paths
        self.itselfPaths = itselfPaths
        self.memberNamePaths = memberNamePaths
        count = paths.count
        var steps: [Step] = []
        var children: [Int] = []
        var positions: [Int] = []
        var memberSets: [JSONMemberSet] = []
        var slotCount = 0
        /// Lays out `step` and everything under it; returns its index.
        func layOut(_ step: PathPlan.Step) -> Int {
            let index = steps.count
            steps.append(
                Step(
                    path: step.path ?? -1, members: nil, slots: 0, firstMember: 0, memberCount: 0, firstPosition: 0,
                    firstPositionChild: 0, positionCount: 0))
            let under = step.memberSteps.map(layOut)
            let underPositions = step.positionSteps.map(layOut)
            if !step.memberNames.isEmpty {
                precondition(step.memberNames.count <= 64, "more than 64 members of one object in a mapping")
                let members = JSONMemberSet(step.memberNames)
                memberSets.append(members)
                steps[index].members = members.table
                steps[index].slots = slotCount
                slotCount += members.count
                steps[index].firstMember = children.count
                steps[index].memberCount = under.count
                children += under
            }
            steps[index].firstPosition = positions.count
            steps[index].firstPositionChild = children.count
            steps[index].positionCount = step.positions.count
            positions += step.positions
            children += underPositions
            return index
        }
        _ = layOut(root)
        self.steps = .allocate(capacity: steps.count)
        self.steps.initialize(from: steps, count: steps.count)
        self.children = .allocate(capacity: max(children.count, 1))
        self.children.initialize(from: children, count: children.count)
        self.positions = .allocate(capacity: max(positions.count, 1))
        self.positions.initialize(from: positions, count: positions.count)
        slots = .allocate(capacity: max(slotCount, 1))
        self.memberSets = memberSets
    }

    deinit {
        steps.deallocate()
        children.deallocate()
        positions.deallocate()
        slots.deallocate()
    }

    /// Whether the paths read positions of the value itself (`[0]`): it is then an array.
    var readsPositionsAtRoot: Bool { steps[0].positionCount > 0 }
    /// Whether the paths read members of the value itself: it is then an object.
    var readsMembersAtRoot: Bool { steps[0].members != nil }

    /// Fills `found[path]` with the token index of each path's value in the object at `object`:
    /// -1 where it is absent, or where something on the way is absent or null. Something on the way
    /// that is neither an object (for a member) nor an array (for a position) is an error.
    func walk(_ tape: JSONTape, object: Int, into found: UnsafeMutablePointer<Int>) throws(PayloadError) {
        found.update(repeating: -1, count: count)
        try walk(0, tape, object, found)
    }

    private func walk(_ index: Int, _ tape: JSONTape, _ token: Int, _ found: UnsafeMutablePointer<Int>) throws(PayloadError) {
        let step = steps[index]
        if let members = step.members {
            guard tape.tokens[token].kind == .object else { throw tape.mismatch(at: token, expected: .kind(.object)) }
            let values = UnsafeMutableBufferPointer(start: slots + step.slots, count: members.count)
            try tape.find(members, inObject: token, into: values)
            // Deeper steps have slots of their own: these stay as found while they are walked.
            for member in 0..<step.memberCount {
                try visit(children[step.firstMember + member], tape, values[member], found)
            }
        }
        if step.positionCount > 0 {
            guard tape.tokens[token].kind == .array else { throw tape.mismatch(at: token, expected: .kind(.array)) }
            for offset in 0..<step.positionCount {
                let position = positions[step.firstPosition + offset]
                var element = -1
                if position < Int(tape.tokens[token].count) {
                    element = token + 1
                    for _ in 0..<position { element = Int(tape.tokens[element].next) }
                }
                try visit(children[step.firstPositionChild + offset], tape, element, found)
            }
        }
    }

    private func visit(_ index: Int, _ tape: JSONTape, _ token: Int, _ found: UnsafeMutablePointer<Int>) throws(PayloadError) {
        guard token >= 0 else { return }
        let step = steps[index]
        if step.path >= 0 { found[step.path] = token }
        guard tape.tokens[token].kind != .null else { return }
        if step.members != nil || step.positionCount > 0 { try walk(index, tape, token, found) }
    }
}
