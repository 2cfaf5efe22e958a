import ImportBenchStore

/// The column affinity of an attribute, as SQLite stores it.
public enum ColumnType: String, Sendable {
    /// UTF-8 text.
    case text = "TEXT"
    /// A 64-bit integer.
    case integer = "INTEGER"
    /// A double.
    case real = "REAL"
    /// Stored as INTEGER 0 or 1.
    case boolean = "BOOLEAN"

    /// The type written in DDL; booleans use INTEGER affinity.
    public var declaration: String { self == .boolean ? "INTEGER" : rawValue }
}

/// A column of an entity's table, named after the payload's member (or the mapping's name for it).
public struct Attribute: Sendable, Hashable {
    /// The column's name.
    public let name: String
    /// How SQLite stores it.
    public let type: ColumnType

    package init(_ name: String, _ type: ColumnType) {
        self.name = name
        self.type = type
    }
}

/// Whether a payload that names an object lists all of its children (or set members), or only some.
/// On a refresh this decides the fate of stored children the payload does not list.
public enum PayloadListing: String, Sendable, Hashable {
    /// Every child is listed: the payload's set replaces the stored set, unlisted children are deleted.
    case complete
    /// A page of them (a channel's latest messages): unlisted children stay.
    case partial
}

/// A foreign key to another entity's row. `owner` marks an owned child's link to its parent:
/// deleting the parent deletes the child. Any other link is nullified when its target is deleted,
/// as Core Data's default delete rule does.
public struct ToOneRelationship: Sendable, Hashable {
    /// The relationship's name; its foreign-key column is `column`.
    public let name: String
    /// The name of the entity it points to.
    public let target: String
    /// Whether it links an owned child to its parent.
    public let owner: Bool
    /// For an owner link: whether a payload naming the parent lists all of its children.
    public let listing: PayloadListing

    package init(_ name: String, to target: String, owner: Bool = false, listing: PayloadListing = .complete) {
        self.name = name
        self.target = target
        self.owner = owner
        self.listing = listing
    }

    /// A refresh deletes the parent's stored children that its payload no longer lists.
    public var replacesChildren: Bool { owner && listing == .complete }

    /// The foreign-key column holding the target's `pk`.
    public var column: String { "\(name)_pk" }
}

/// A many-to-many set kept in a join table with a unique (source, target) pair.
/// The payload's set (the union over the object's occurrences) replaces the stored set unless
/// `listing` is `.partial`, in which case sets are only ever added to.
public struct ManyToManyRelationship: Sendable, Hashable {
    /// The relationship's name; its join table is `Entity.joinTable(_:)`.
    public let name: String
    /// The name of the entity whose rows the set holds.
    public let target: String
    /// Whether a payload naming the object lists the whole set.
    public let listing: PayloadListing

    package init(_ name: String, to target: String, listing: PayloadListing = .complete) {
        self.name = name
        self.target = target
        self.listing = listing
    }
}

/// One entity: a table with a surrogate `pk` (as Core Data's Z_PK) and a unique natural key.
public struct Entity: Sendable, Hashable {
    /// The entity's name, which is its table's name.
    public let name: String
    /// The natural key: a unique column, by which payload occurrences name the object.
    public let key: Attribute
    /// Its other columns, in the order of `BatchOccurrence.attributes`.
    public let attributes: [Attribute]
    /// Its foreign keys, in the order of `BatchOccurrence.toOne`.
    public let toOne: [ToOneRelationship]
    /// Its sets, in the order of `BatchOccurrence.manyToMany`.
    public let manyToMany: [ManyToManyRelationship]

    package init(
        _ name: String,
        key: Attribute,
        attributes: [Attribute],
        toOne: [ToOneRelationship] = [],
        manyToMany: [ManyToManyRelationship] = []
    ) {
        self.name = name
        self.key = key
        self.attributes = attributes
        self.toOne = toOne
        self.manyToMany = manyToMany
    }

    /// The join table of one of this entity's many-to-many relationships.
    public func joinTable(_ relationship: ManyToManyRelationship) -> String {
        "\(name)_\(relationship.name)"
    }
}

/// Why declared entities do not make a store: the schema layer's one error, which a mapping wraps
/// with the file and the declaration's line (`MappingProblem.schema`).
package enum SchemaProblem: Error, Equatable, Sendable, Codable, CustomStringConvertible {
    case duplicateEntity(String)
    case unknownTarget(entity: String, relationship: String, target: String)
    case targetAfterSource(entity: String, relationship: String, target: String)
    /// Two tables or indexes of the store would share `name` (SQLite compares names without case):
    /// the later one is `entity`'s own table, or serves its `relationship`; `taken` says who has it.
    case nameTaken(name: String, entity: String, relationship: String?, taken: String)

    package var description: String {
        switch self {
        case .duplicateEntity(let name):
            return "schema declares entity '\(name)' twice"
        case .unknownTarget(let entity, let relationship, let target):
            return "\(entity).\(relationship) points to unknown entity '\(target)'"
        case .targetAfterSource(let entity, let relationship, let target):
            return "\(entity).\(relationship) points to '\(target)', declared later; declare entities in dependency order"
        case .nameTaken(let name, let entity, let relationship, let taken):
            return "\(Self.owner(entity, relationship)) needs a table or index named '\(name)', which \(taken) already takes; rename one of them"
        }
    }

    /// How a message names what a store object is for: `entity 'post'`, or `post.tags`.
    package static func owner(_ entity: String, _ relationship: String?) -> String {
        relationship.map { "\(entity).\($0)" } ?? "entity '\(entity)'"
    }
}

/// A scenario's entities in dependency order: every relationship targets an earlier entity or itself,
/// so writing entities in this order never meets a missing parent.
public struct Schema: Sendable {
    /// The scenario's or mapping's name.
    public let name: String
    /// In dependency order: a relationship's target comes before its source (or is the source itself).
    public let entities: [Entity]
    /// For each entity, the index of each to-one relationship's target (hot paths avoid name lookups).
    package let toOneTargets: [[Int]]
    /// For each entity, the index of each many-to-many relationship's target.
    package let manyToManyTargets: [[Int]]
    /// For each entity, whether a payload naming one of its objects can list its children or set
    /// members completely, so that a refresh removes what it no longer lists: such rows carry
    /// `Schema.listedColumn`.
    package let tracksListing: [Bool]
    private let indexByName: [String: Int]

    package init(name: String, entities: [Entity]) throws(SchemaProblem) {
        var indexByName: [String: Int] = [:]
        for (index, entity) in entities.enumerated() {
            guard indexByName[entity.name] == nil else { throw .duplicateEntity(entity.name) }
            indexByName[entity.name] = index
        }
        var takenNames: [String: String] = [:]
        for entity in entities {
            for (name, relationship) in entity.storeObjectNames {
                let owner = SchemaProblem.owner(entity.name, relationship)
                if let taken = takenNames[name.lowercased()] {
                    throw .nameTaken(name: name, entity: entity.name, relationship: relationship, taken: taken)
                }
                takenNames[name.lowercased()] = owner
            }
        }
        for (index, entity) in entities.enumerated() {
            let targets = entity.toOne.map { ($0.name, $0.target) } + entity.manyToMany.map { ($0.name, $0.target) }
            for (relationship, target) in targets {
                guard let targetIndex = indexByName[target] else {
                    throw .unknownTarget(entity: entity.name, relationship: relationship, target: target)
                }
                guard targetIndex <= index else {
                    throw .targetAfterSource(entity: entity.name, relationship: relationship, target: target)
                }
            }
        }
        self.name = name
        self.entities = entities
        self.indexByName = indexByName
        self.toOneTargets = entities.map { $0.toOne.map { indexByName[$0.target] ?? 0 } }
        self.manyToManyTargets = entities.map { $0.manyToMany.map { indexByName[$0.target] ?? 0 } }
        var tracksListing = entities.map { $0.manyToMany.contains { $0.listing == .complete } }
        for entity in entities {
            for relationship in entity.toOne where relationship.replacesChildren {
                if let parent = indexByName[relationship.target] { tracksListing[parent] = true }
            }
        }
        self.tracksListing = tracksListing
    }

    /// The index of the entity named `entityName` in `entities`, if there is one.
    package func index(of entityName: String) -> Int? { indexByName[entityName] }

    /// Every entity's ID, in dependency order (targets before the entities that point at them).
    public var entityIDs: [EntityID] { entities.indices.map(EntityID.init) }

    /// The entity `id` names.
    public subscript(id: EntityID) -> Entity { entities[id.index] }

    /// The ID of the entity named `entityName`, if the schema has one.
    public func id(of entityName: String) -> EntityID? { indexByName[entityName].map(EntityID.init) }

    /// Whether the entity's rows carry `Schema.listedColumn`: a payload naming one of its objects can
    /// list its children or set members completely, and a refresh removes what it no longer lists.
    public func hasListedColumn(_ entity: Entity) -> Bool { indexByName[entity.name].map { tracksListing[$0] } ?? false }

    /// The entity a to-one relationship targets (checked when the schema was made).
    public func target(of relationship: ToOneRelationship) -> EntityID { EntityID(targetIndex(of: relationship)) }

    /// The entity a many-to-many relationship's members belong to.
    public func target(of relationship: ManyToManyRelationship) -> EntityID { EntityID(targetIndex(of: relationship)) }

    /// Index of the entity a to-one relationship targets (validated at init).
    package func targetIndex(of relationship: ToOneRelationship) -> Int { indexByName[relationship.target] ?? 0 }

    /// Index of the entity a many-to-many relationship's members belong to.
    package func targetIndex(of relationship: ManyToManyRelationship) -> Int { indexByName[relationship.target] ?? 0 }
}
