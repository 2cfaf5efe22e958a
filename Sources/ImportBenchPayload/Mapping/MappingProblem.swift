import ImportBenchSchema

/// What is wrong in a mapping file, as values: the names, keys, paths and templates a user needs to
/// find and fix it. `description` is the one place they are put into words.
package enum MappingProblem: Equatable, Sendable, Codable, CustomStringConvertible {
    // MARK: The file and its YAML

    /// The file cannot be read: why.
    case unreadable(Unreadable)
    /// The file holds no document.
    case emptyFile
    /// The YAML parser refuses the text: its own message.
    case invalidYAML(String)
    /// The YAML loader failed otherwise: its error's text.
    case notYAML(String)
    /// Keys given twice in one YAML mapping, as the YAML parser finds them.
    case yamlKeysTwice([String])
    /// An error the loader does not expect from itself (a bug, not the file's): its text.
    case unexpected(String)

    // MARK: Mappings and values

    /// A section that is not a mapping of names to values.
    case notAMapping(Section)
    /// A key of a section that is a list or a mapping, not a name.
    case keyNotAName(in: Section)
    /// A key a section does not take, and the keys it takes.
    case unknownKey(String, in: Section, allowed: [String])
    /// A key given twice in a section.
    case keyTwice(String, in: Section)
    /// A key that must be given and is not.
    case missingKey(String)
    /// A list or a mapping where a single value goes.
    case notSingleValue(Field)
    /// A value other than those a setting takes: the value.
    case notAChoice(String, of: Choice)
    /// A column type other than text, integer, real and boolean.
    case unknownType(String)
    /// A path that is not `member.member[position]...`: why, and the path as written.
    case pathSyntax(PathSyntax, path: String)
    /// A path given as a value that is not `member.member[position]...`: what it is for, why, the path.
    case badPath(Field, PathSyntax, path: String)

    // MARK: Collections

    /// A collection's path (`elements`, or a collection's `path`) with a position in it.
    case positionInCollectionPath(Field)
    /// `elements`, `element` or `header_row` (the key given) beside `collections`.
    case singleCollectionKey(String)
    /// `collections` that is not a list of collections, or an empty one.
    case collectionsNotAList
    /// Two collections at one path.
    case collectionTwice(path: String)
    /// An element's entity (of `element`, or of the collection at a path) that entities does not
    /// declare, and the entities it declares.
    case undeclaredElement(String, collection: String?, declared: [String])
    /// An element's entity with an owner relationship, which nothing can set.
    case elementWithOwner(entity: String, relationship: String)
    /// `format: json-lines` with more than the document's own collection.
    case jsonLinesWithCollections
    /// `shared` that is not a list.
    case sharedNotAList

    // MARK: Entities and their keys

    /// `entities` with no entity in it.
    case noEntities
    /// An entity name that starts as bench's or SQLite's own tables do.
    case reservedEntityName(String)
    /// Two entities of one name.
    case entityTwice(String)
    /// An entity named by `shared`, a children list or a relationship that entities does not declare.
    case undeclaredEntity(String, namedBy: EntityReference)
    /// A relationship whose target is declared after its entity.
    case targetDeclaredLater(entity: String, relationship: String, target: String)
    /// An entity without `key`.
    case noNaturalKey(entity: String)
    /// A key read at a path with no member to name its column after.
    case keyColumnUnnamed
    /// An entity's key with both or neither of `path` and `compose`.
    case keyNeedsPathOrCompose(entity: String)
    /// A `fallback` beside `compose` in an entity's key.
    case fallbackWithCompose(entity: String)
    /// A compose template that does not parse or has no part: why, and the template.
    case badCompose(ComposeSyntax, template: String)
    /// An entity's key composed with `{@index}`, though the entity is also read where it has no position.
    case positionInKeyReadAlone(entity: String)
    /// A column of an entity named as one of bench's own.
    case reservedColumn(String, entity: String)
    /// Two columns of one name in an entity.
    case columnTwice(String, entity: String)
    /// An entity reading more members of one object (nil: the object itself) than the reader can.
    case tooManyMembers(entity: String, count: Int, object: String?)
    /// An entity whose composed key is the same in every copy of a sample (`SampleScaler`).
    case keyRepeatsInCopies(entity: String)

    // MARK: Relationships

    /// A to-one relationship with neither an owner nor a place to read it.
    case toOneNeedsSource(String)
    /// `listing` on a to-one relationship that is not an owner.
    case listingWithoutOwner
    /// A many-to-many relationship with both or neither of `embedded` and `keys`.
    case manyToManyNeedsSource(String)
    /// Two many-to-many relationships of one name in an entity.
    case manyToManyTwice(String, entity: String)
    /// A children list whose child has no owner relationship to its parent.
    case childWithoutOwner(child: String, parent: String)
    /// A children list whose child has more than one owner relationship to its parent.
    case severalOwners(child: String, parent: String)

    // MARK: Beyond the file's declarations

    /// The declared entities do not make a store.
    case schema(SchemaProblem)
    /// The file is past one of the loader's limits (`MappingLimit`): the limit it had, and how
    /// much was found (nil: more than the limit, read no further).
    case overLimit(MappingLimit, limit: Int, found: Int?)

    package var description: String {
        switch self {
        case .unreadable(let why): return "cannot read the mapping file (\(why))"
        case .emptyFile: return "the file is empty; a mapping needs name, element and entities"
        case .invalidYAML(let message): return "not valid YAML: \(message)"
        case .notYAML(let error): return "not YAML: \(error)"
        case .yamlKeysTwice(let keys): return keys.map { "'\($0)'" }.joined(separator: ", ") + " appears twice in one mapping"
        case .unexpected(let error): return error
        case .notAMapping(let section): return "\(section) must be a mapping of names to values"
        case .keyNotAName(let section): return "a key in \(section) must be a plain name"
        case .unknownKey(let key, let section, let allowed): return "unknown key '\(key)' in \(section); expected \(allowed.joined(separator: ", "))"
        case .keyTwice(let key, let section): return "'\(key)' appears twice in \(section)"
        case .missingKey(let key): return "'\(key)' is missing"
        case .notSingleValue(let field): return "\(field) must be a single value, not a list or a mapping"
        case .notAChoice(let value, let choice): return "\(choice), not '\(value)'"
        case .unknownType(let name): return "unknown type '\(name)'; expected text, integer, real or boolean"
        case .pathSyntax(let syntax, let path): return syntax.sentence(path: path)
        case .badPath(let field, let syntax, let path): return "\(field): \(syntax.sentence(path: path))"
        case .positionInCollectionPath(let field): return "\(field) names a collection by member names only (such as data.items), not positions"
        case .singleCollectionKey(let key):
            return "'\(key)' is for a document of one collection; with collections, give each its path, entity and header_row"
        case .collectionsNotAList:
            return "collections must be a list of {path: MEMBERS, entity: NAME}, in the order to read them (targets first)"
        case .collectionTwice(let path): return "collection '\(path)' is listed twice"
        case .undeclaredElement(let entity, let collection, let declared):
            return "\(collection.map { "collection '\($0)'" } ?? "element") names entity '\(entity)', which entities does not declare"
                + " (\(declared.joined(separator: ", ")))"
        case .elementWithOwner(let entity, let relationship):
            return "'\(entity)' is a top-level element, so it has no owner: its relationship '\(relationship)' can never be set"
        case .jsonLinesWithCollections:
            return "format: json-lines reads one element per line: it takes element alone, without elements or collections"
        case .sharedNotAList: return "shared must be a list of entity names"
        case .noEntities: return "entities is empty; declare at least one entity"
        case .reservedEntityName(let name): return "entity name '\(name)' is reserved for bench's and SQLite's own tables"
        case .entityTwice(let name): return "entity '\(name)' is declared twice"
        case .undeclaredEntity(let entity, let reference): return "\(reference) entity '\(entity)', which entities does not declare"
        case .targetDeclaredLater(let entity, let relationship, let target):
            return "\(entity).\(relationship) points to '\(target)', declared later: declare entities in dependency order (targets first)"
        case .noNaturalKey(let entity): return "'key' is missing in entity '\(entity)' (where its natural key is)"
        case .keyColumnUnnamed: return "the key's path names no member to name its column after; write key: {column: ..., path: ...}"
        case .keyNeedsPathOrCompose(let entity):
            return "the key of '\(entity)' needs exactly one of path (where it is) or compose (how to build it)"
        case .fallbackWithCompose(let entity): return "a fallback is for a key read at a path: compose already builds the key of '\(entity)'"
        case .badCompose(let syntax, let template): return syntax.sentence(template: template)
        case .positionInKeyReadAlone(let entity):
            return "the key of '\(entity)' uses {@index}, but it is also read on its own (as the element, or embedded as a to_one),"
                + " where it has no position; compose it from a key or a value"
        case .reservedColumn(let column, let entity): return "column '\(column)' of '\(entity)' is bench's own; name it otherwise"
        case .columnTwice(let column, let entity): return "'\(entity)' has two columns named '\(column)'"
        case .tooManyMembers(let entity, let count, let object):
            return "'\(entity)' reads \(count) members of one object (\(object ?? "the object itself")); a mapping reads at most 64 from one object"
        case .keyRepeatsInCopies(let entity):
            return "the key of \(entity) is composed of values and shared keys only, so copies of the sample would repeat its keys:"
                + " compose it with a key of an entity that is not shared, or mark it shared"
        case .toOneNeedsSource(let relationship):
            return "to_one '\(relationship)' needs owner: true (the object whose children list holds it), or embedded: PATH (an object),"
                + " key: PATH (the target's key) or both (the object when present, else the key)"
        case .listingWithoutOwner: return "listing applies to an owner relationship (is the owner's children list complete or a page?)"
        case .manyToManyNeedsSource(let relationship):
            return "many_to_many '\(relationship)' needs exactly one of embedded: PATH (an array of objects) or keys: PATH (an array of keys)"
        case .manyToManyTwice(let relationship, let entity): return "'\(entity)' has two many_to_many relationships named '\(relationship)'"
        case .childWithoutOwner(let child, let parent):
            return "'\(child)' is listed as a child of '\(parent)' but has no to_one with entity: \(parent) and owner: true to link it"
        case .severalOwners(let child, let parent): return "'\(child)' has several owner relationships to '\(parent)'; keep one"
        case .schema(let problem): return problem.description
        case .overLimit(let what, let limit, let found): return what.sentence(limit: limit, found: found)
        }
    }
}

extension MappingProblem {
    /// Why the file cannot be read.
    package enum Unreadable: Equatable, Sendable, Codable, CustomStringConvertible {
        /// The path names a directory.
        case directory
        /// The bytes are not UTF-8.
        case notUTF8
        /// Opening or reading it failed: the system's message.
        case failed(String)

        package var description: String {
            switch self {
            case .directory: return "it is a directory"
            case .notUTF8: return "it is not UTF-8 text"
            case .failed(let message): return message
            }
        }
    }

    /// A mapping of names to values in the file, as a message names it.
    package enum Section: Equatable, Sendable, Codable, CustomStringConvertible {
        /// The file's top level.
        case topLevel
        /// `entities`.
        case entities
        /// One entry of `collections`.
        case collection
        /// One entity's declaration.
        case entity(String)
        /// An entity's `key`, when a mapping.
        case key(of: String)
        /// An entity's `attributes`.
        case attributes(of: String)
        /// One attribute, when a mapping.
        case attribute(String)
        /// An entity's `to_one`.
        case toOneRelationships(of: String)
        /// One to-one relationship.
        case toOne(String)
        /// An entity's `many_to_many`.
        case manyToManyRelationships(of: String)
        /// One many-to-many relationship.
        case manyToMany(String)
        /// An entity's `children`.
        case children(of: String)

        package var description: String {
            switch self {
            case .topLevel: return "the mapping"
            case .entities: return "entities"
            case .collection: return "a collection"
            case .entity(let name): return "entity '\(name)'"
            case .key(let entity): return "the key of '\(entity)'"
            case .attributes(let entity): return "the attributes of '\(entity)'"
            case .attribute(let name): return "attribute '\(name)'"
            case .toOneRelationships(let entity): return "the to_one relationships of '\(entity)'"
            case .toOne(let name): return "to_one '\(name)'"
            case .manyToManyRelationships(let entity): return "the many_to_many relationships of '\(entity)'"
            case .manyToMany(let name): return "many_to_many '\(name)'"
            case .children(let entity): return "the children of '\(entity)'"
            }
        }
    }

    /// A single value in the file, as a message names it.
    package enum Field: Equatable, Sendable, Codable, CustomStringConvertible {
        /// The value of a key, named by the key: `name`, `format`, `header_row`, `embedded`...
        case named(String)
        /// A collection's `path`.
        case collectionPath
        /// An entry of `shared`.
        case sharedEntity
        /// The `path` of an entity's key.
        case keyPath
        /// An attribute's type.
        case type
        /// A children list's path (its key).
        case childrenPath
        /// A children list's entity (its value).
        case childEntity

        package var description: String {
            switch self {
            case .named(let key): return key
            case .collectionPath: return "a collection's path"
            case .sharedEntity: return "a shared entity"
            case .keyPath: return "key path"
            case .type: return "a type"
            case .childrenPath: return "a children path"
            case .childEntity: return "the child entity"
            }
        }
    }

    /// A setting that takes one of a few values, and the values it takes.
    package enum Choice: Equatable, Sendable, Codable, CustomStringConvertible {
        /// `format`: json or json-lines.
        case format
        /// `absent`: keep or null.
        case absent
        /// `listing`: complete or partial.
        case listing
        /// A true-or-false setting: which.
        case boolean(Field)

        package var description: String {
            switch self {
            case .format:
                return "format must be json (one document, the default) or json-lines (one element per line, whatever the file's name)"
            case .absent: return "absent must be keep (a member an object leaves out keeps its stored value) or null (it sets NULL)"
            case .listing: return "listing must be complete (the payload lists every child) or partial (a page of them)"
            case .boolean(let field): return "\(field) must be true or false"
            }
        }
    }

    /// What names an entity, as a message says it before the entity's name.
    package enum EntityReference: Equatable, Sendable, Codable, CustomStringConvertible {
        /// An entry of `shared`.
        case shared
        /// A children list of an entity: its path, and the entity.
        case children(path: String, of: String)
        /// A relationship of an entity.
        case relationship(entity: String, relationship: String)

        package var description: String {
            switch self {
            case .shared: return "shared names"
            case .children(let path, let entity): return "children '\(path)' of '\(entity)' names"
            case .relationship(let entity, let relationship): return "\(entity).\(relationship) points to"
            }
        }
    }

    /// Why a path is not `member.member[position]...`.
    package enum PathSyntax: Equatable, Sendable, Codable {
        /// Two `.` in a row, or a `.` first.
        case emptyMember
        /// `[` without a position (a whole number from 0) and `]` after it.
        case positionExpected
        /// Something other than `.` or `[` after `]`.
        case separatorExpected
        /// A `.` at the end.
        case endsWithDot
        /// `]` without `[` before it.
        case unopenedBracket

        /// The sentence for `path`.
        func sentence(path: String) -> String {
            switch self {
            case .emptyMember: return "an empty member name in '\(path)'"
            case .positionExpected: return "'[' must hold a position such as [0] in '\(path)'"
            case .separatorExpected: return "'.' or '[' expected after ']' in '\(path)'"
            case .endsWithDot: return "'\(path)' ends with '.'"
            case .unopenedBracket: return "']' without '[' in '\(path)'"
            }
        }
    }

    /// Why a compose template does not make a key.
    package enum ComposeSyntax: Equatable, Sendable, Codable {
        /// `}` without `{` before it.
        case unopenedBrace
        /// `{` without `}` after it.
        case unclosedBrace
        /// `{}`.
        case emptyPart
        /// Nothing in braces: every object would get the same key.
        case noPart
        /// A part that is not a path: why, and the part.
        case badPath(PathSyntax, path: String)

        /// The sentence for `template`.
        func sentence(template: String) -> String {
            switch self {
            case .unopenedBrace: return "'}' without '{' in compose '\(template)'"
            case .unclosedBrace: return "'{' without '}' in compose '\(template)'"
            case .emptyPart: return "an empty {} in compose '\(template)'"
            case .noPart: return "compose '\(template)' has no {part}: every object would get the same key"
            case .badPath(let syntax, let path): return "in compose '\(template)': \(syntax.sentence(path: path))"
            }
        }
    }
}
