import ImportBenchSchema

/// What one entity's mapping reads, compiled once: each path numbered for a walk's frame, key parts
/// as bytes. The reader and the sample scaler both work from it.
/// A class: a reader takes its entity's plan once per object, and copying a struct of arrays
/// retained each of them.
final class EntityPlan {
    let paths: PathWalk
    let key: KeyPlan
    let attributes: FrozenBuffer<Int>
    let toOne: FrozenBuffer<ToOnePlan>
    let manyToMany: FrozenBuffer<SetPlan>
    let children: FrozenBuffer<ChildPlan>
    /// The schema's target entity of each to-one relationship, in their order.
    let toOneTargets: FrozenBuffer<Int>
    /// The schema's target entity of each set, in their order.
    let manyToManyTargets: FrozenBuffer<Int>
    /// The schema's column type of each attribute, in `attributes`' order.
    let attributeTypes: [ColumnType]
    /// The paths of the children lists and sets a payload lists completely: an object lacking any
    /// of them (absent or null, as an embedded quoted message lacks its attachments) lists none,
    /// and a refresh keeps what is stored for it.
    let listingPaths: FrozenBuffer<Int>
    /// Whether a member the object leaves out sets NULL (`absent: null`) rather than keeping the stored value.
    let absentIsNull: Bool

    init(
        paths: PathWalk, key: KeyPlan, attributes: [Int], toOne: [ToOnePlan], manyToMany: [SetPlan],
        children: [(path: Int, list: ChildList)], entity index: Int, schema: Schema, absentIsNull: Bool = false
    ) {
        let entity = schema.entities[index]
        self.absentIsNull = absentIsNull
        self.paths = paths
        self.key = key
        self.attributes = FrozenBuffer(attributes)
        self.toOne = FrozenBuffer(toOne)
        self.manyToMany = FrozenBuffer(manyToMany)
        self.children = FrozenBuffer(children.map { ChildPlan(path: $0.path, entity: $0.list.entity, ownerRelationship: $0.list.ownerRelationship) })
        toOneTargets = FrozenBuffer(schema.toOneTargets[index])
        manyToManyTargets = FrozenBuffer(schema.manyToManyTargets[index])
        attributeTypes = entity.attributes.map(\.type)
        let listedChildren = children.filter { schema.entities[$0.list.entity].toOne[$0.list.ownerRelationship].replacesChildren }
        let listedSets = zip(manyToMany, entity.manyToMany).filter { $1.listing == .complete }.map { source, _ in
            switch source {
            case .embedded(let path), .keys(let path): return path
            }
        }
        listingPaths = FrozenBuffer(listedChildren.map(\.path) + listedSets)
    }

    deinit {
        attributes.free()
        toOne.free()
        manyToMany.free()
        listingPaths.free()
        children.free()
        toOneTargets.free()
        manyToManyTargets.free()
    }
}

/// A list of children an object holds: where it is, the child entity and the child's link back.
struct ChildPlan {
    let path: Int
    let entity: Int
    /// The child entity's to-one relationship that points back at the owner.
    let ownerRelationship: Int
}

enum KeyPlan {
    case path(Int, fallback: [PartPlan]?)
    case composed([PartPlan])
}

enum PartPlan {
    case literal([UInt8])
    case path(Int)
    case relationship(Int)
    case position
}

extension ToOnePlan {
    /// Where an embedded target may be.
    var embeddedPath: Int? {
        switch self {
        case .embedded(let path), .embeddedOrKey(let path, _): return path
        case .owner, .key: return nil
        }
    }

    /// Where the target's key may be.
    var keyPath: Int? {
        switch self {
        case .key(let path), .embeddedOrKey(_, let path): return path
        case .owner, .embedded: return nil
        }
    }
}

enum ToOnePlan {
    case owner
    case embedded(Int)
    case key(Int)
    case embeddedOrKey(Int, key: Int)
}

enum SetPlan {
    case embedded(Int)
    case keys(Int)
}

extension EntityPlan {
    /// The plan of `entity`, the schema's entity `index`.
    convenience init(_ entity: EntityMapping, index: Int, in schema: Schema) {
        let paths = PathPlan()
        let key: KeyPlan
        func plan(_ parts: [KeyPart]) -> [PartPlan] {
            parts.map { part in
                switch part {
                case .literal(let text): return .literal(Array(text.utf8))
                case .path(let path): return .path(paths.add(path))
                case .relationship(let index): return .relationship(index)
                case .position: return .position
                }
            }
        }
        switch entity.key {
        case .path(let path, let fallback): key = .path(paths.add(path), fallback: fallback.map(plan))
        case .composed(let parts): key = .composed(plan(parts))
        }
        let attributes = entity.attributes.map { paths.add($0) }
        let toOne = entity.toOne.map { source -> ToOnePlan in
            switch source {
            case .owner: return .owner
            case .embedded(let path): return .embedded(paths.add(path))
            case .key(let path): return .key(paths.add(path))
            case .embeddedOrKey(let path, let key): return .embeddedOrKey(paths.add(path), key: paths.add(key))
            }
        }
        let manyToMany = entity.manyToMany.map { source -> SetPlan in
            switch source {
            case .embedded(let path): return .embedded(paths.add(path))
            case .keys(let path): return .keys(paths.add(path))
            }
        }
        let children = entity.children.map { (paths.add($0.path), $0) }
        self.init(
            paths: paths.sealed(), key: key, attributes: attributes, toOne: toOne, manyToMany: manyToMany, children: children,
            entity: index, schema: schema, absentIsNull: entity.absentMembers == .null)
    }
}

extension EntityPlan {
    /// Walks the value at `token` into a new frame at the end of `found` and returns where the frame
    /// starts: read it by offset (`found[frame + path]`), since a nested object's frame may move the
    /// buffer. The caller truncates `found` back to it when done. The value is an object, or, for a
    /// mapping that reads it by position (`[0]`), an array (a row of a compact export); the path `.`
    /// is the value itself.
    /// `@key` is `memberNameToken` where the value is a member of a collection that is an object
    /// (the caller reads the name from its element source), -1 elsewhere.
    func openFrame(
        _ tape: JSONTape, _ token: Int, in found: inout PODArray<Int>, hasMemberName: Bool = false
    ) throws(PayloadError) -> Int {
        let kind = tape.tokens[token].kind
        if paths.readsPositionsAtRoot, kind != .array {
            throw tape.mismatch(at: token, expected: .kind(.rowByPosition))
        }
        if paths.readsMembersAtRoot, kind != .object {
            throw tape.mismatch(at: token, expected: .kind(.object))
        }
        let frame = found.count
        _ = found.extend(by: paths.count)
        try paths.walk(tape, object: token, into: found.base + frame)
        for path in paths.itselfPaths { found[frame + path] = token }
        if hasMemberName { for path in paths.memberNamePaths { found[frame + path] = Self.memberNameToken } }
        return frame
    }

    /// What a frame holds for `@key` where the element has a member name: not a token of the tape.
    static let memberNameToken = -2
}

extension PayloadMapping {
    /// Each entity's plan, in the schema's order.
    var plans: [EntityPlan] {
        entities.enumerated().map { EntityPlan($1, index: $0, in: schema) }
    }

    /// The member names that lead to the first collection, as the element reader takes them.
    var elementsArrayPath: [String] { collections[0].arrayPath }
}
