import ImportBenchSchema

/// A JSON payload's shape as data: which array holds the top-level elements, which entity each
/// element is, and for every entity where its key, attributes and relationships lie. It yields the
/// `Schema` the strategies already use, and `MappedPayloadReader` reads payloads through it, so a new
/// shape is a file (`bench run --mapping FILE`), not Swift code.
///
/// Occurrences are emitted dependencies first: an object's embedded to-one targets, then its
/// embedded set members (each in declaration order, each read whole), then the object, then its
/// children, list by list, each child followed by its own children. The last occurrence of an
/// object wins, so this order is part of the mapping's meaning.
package struct PayloadMapping: Sendable {
    package let name: String
    package let summary: String
    /// Where the top-level elements are, collection by collection, in the order they are read
    /// (targets first): one for `elements`/`element`, several for `collections`.
    package let collections: [ElementCollection]
    package let schema: Schema
    /// Per entity of `schema`, in its order.
    package let entities: [EntityMapping]
    /// Entities whose objects stay the same in every copy when a sample is scaled (`generate --from`).
    package let shared: [Int]
    package let screenQuery: String?
    /// Whether payloads of this mapping are JSON Lines whatever their names (`format: json-lines`).
    package var jsonLines = false

    /// Whether the payload at `path` is read as JSON Lines: the mapping says so, or its name does.
    package func readsLines(_ path: String) -> Bool { jsonLines || JSONElements.isJSONLines(path) }

    /// Where the first collection is; empty when the document is that array.
    package var elements: JSONPath { collections[0].path }
    /// The entity each element of the first collection is read as.
    package var rootEntity: Int { collections[0].entity }
    /// Whether the first collection starts with a header row.
    package var headerRow: Bool { collections[0].headerRow }
}

/// One collection of a document's top-level elements: an array, or an object keyed by id, at
/// `path`, each element read as `entity`.
package struct ElementCollection: Sendable, Equatable {
    /// Member names from the document's root; empty when the document is the collection.
    package let path: JSONPath
    package let entity: Int
    /// Whether the first element is a header row (an array of column names, as compact exports
    /// write before rows given as arrays): checked and left out; the rows are read by position.
    package var headerRow = false

    package init(path: JSONPath, entity: Int, headerRow: Bool = false) {
        self.path = path
        self.entity = entity
        self.headerRow = headerRow
    }

    /// The member names that lead to it, as the element reader takes them.
    package var arrayPath: [String] {
        path.segments.compactMap { if case .member(let name) = $0 { return name } else { return nil } }
    }
}

/// Where one entity's values lie, relative to the object it is read from.
package struct EntityMapping: Sendable {
    package let key: KeySource
    /// Per attribute of the entity, in the schema's order.
    package let attributes: [JSONPath]
    /// Per to-one relationship, in the schema's order.
    package let toOne: [ToOneSource]
    /// Per many-to-many relationship, in the schema's order.
    package let manyToMany: [SetSource]
    /// Arrays of owned objects, in the order they are read.
    package let children: [ChildList]
    /// What a member absent from an object means for its attribute or to-one relationship.
    package var absentMembers: AbsentMembers = .keep
}

/// What an attribute or to-one relationship whose member an object leaves out is set to.
package enum AbsentMembers: String, Sendable {
    /// Left as an earlier occurrence or the store has it; a member present with null sets NULL (the
    /// rule of JSON Merge Patch, RFC 7396): a partial object (a mention naming a user by id and
    /// name) does not blank the full one. The default.
    case keep
    /// Set to NULL, as if the member were null: for payloads whose objects always come whole and
    /// drop a member to say it has no value.
    case null
}

package enum KeySource: Sendable, Equatable {
    /// A string, or an integer written as decimal text; where the path has no value, the key is
    /// composed from `fallback` when one is given (a USGS mirror that drops `id` still has the
    /// `net` and `code` it is made of).
    case path(JSONPath, fallback: [KeyPart]? = nil)
    /// Text made of parts, as a reaction's `message/user/type`.
    case composed([KeyPart])
}

extension KeySource {
    /// The parts the key may be composed of: all of a composed key, a path key's fallback.
    var composedParts: [KeyPart] {
        switch self {
        case .path(_, let fallback): return fallback ?? []
        case .composed(let parts): return parts
        }
    }
}

package enum KeyPart: Sendable, Equatable {
    case literal(String)
    /// A value of the object, as text.
    case path(JSONPath)
    /// The key of a to-one relationship's target (by its index in the entity's to-one relationships).
    case relationship(Int)
    /// The object's position in the list it was read from (0-based).
    case position
}

package enum ToOneSource: Sendable, Equatable {
    /// The object whose children list holds this one; for an embedded object, the nearest enclosing
    /// object of the target entity.
    case owner
    /// An object of the target entity, embedded at the path.
    case embedded(JSONPath)
    /// The target's key, at the path (a `channel_id`).
    case key(JSONPath)
    /// The embedded object when it is there, else the key (Stream's `quoted_message` beside `quoted_message_id`).
    case embeddedOrKey(JSONPath, key: JSONPath)
}

package enum SetSource: Sendable, Equatable {
    /// An array of embedded objects of the target entity.
    case embedded(JSONPath)
    /// An array of the targets' keys.
    case keys(JSONPath)
}

package struct ChildList: Sendable, Equatable {
    package let path: JSONPath
    package let entity: Int
    /// The child entity's to-one relationship that points back at the owner.
    package let ownerRelationship: Int
}
