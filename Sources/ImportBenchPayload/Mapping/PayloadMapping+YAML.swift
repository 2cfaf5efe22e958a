import Foundation
import ImportBenchSchema
import Yams

extension PayloadMapping {
    /// Reads the mapping file at `path`. YAML because a mapping is written and read by people:
    /// comments, no braces to balance, and every error below names its line and column.
    package static func load(path: String) throws(MappingError) -> PayloadMapping {
        try PayloadMapping(yaml: try text(of: path), file: path)
    }

    /// The file's text, at most `MappingLimit.fileBytes`: a larger regular file is refused by its
    /// size before a byte is read, a pipe or a device (`<(...)`, `/dev/zero`) once it has given
    /// one byte more than the limit.
    static func text(of path: String) throws(MappingError) -> String {
        let limit = MappingLimit.fileBytes.limit
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            var status = stat()
            if fstat(handle.fileDescriptor, &status) == 0 {
                if status.st_mode & S_IFMT == S_IFDIR { throw MappingError(file: path, problem: .unreadable(.directory)) }
                if status.st_mode & S_IFMT == S_IFREG, Int(status.st_size) > limit {
                    throw MappingError.overLimit(.fileBytes, found: Int(status.st_size), file: path)
                }
            }
            data = try handle.read(upToCount: limit + 1) ?? Data()
        } catch let error as MappingError {
            throw error
        } catch {
            throw MappingError(file: path, problem: .unreadable(.failed(error.localizedDescription)))
        }
        guard data.count <= limit else { throw MappingError.overLimit(.fileBytes, found: nil, file: path) }
        guard let text = String(data: data, encoding: .utf8) else {
            throw MappingError(file: path, problem: .unreadable(.notUTF8))
        }
        return text
    }

    /// Parses a mapping; `file` names it in errors.
    package init(yaml: String, file: String) throws(MappingError) {
        do {
            self = try MappingParser(file: file).parse(yaml)
        } catch let error as MappingError {
            throw error
        } catch {
            throw MappingError(file: file, problem: .unexpected("\(error)"))
        }
    }
}

/// Turns a YAML document into a `PayloadMapping`, checking every name and reference as it goes.
private struct MappingParser {
    let file: String

    typealias Entry = (key: String, keyNode: Node, value: Node)

    func fail(_ node: Node?, _ problem: MappingProblem) -> MappingError {
        MappingError(file: file, line: node?.mark?.line, column: node?.mark?.column, problem: problem)
    }

    func parse(_ yaml: String) throws -> PayloadMapping {
        let root = try document(yaml)
        try countValues(root)
        let top = try entries(
            root, .topLevel,
            allowed: ["name", "summary", "format", "elements", "element", "header_row", "collections", "entities", "shared", "screen_query"])
        let name = try string(required(top, "name", in: root), .named("name"))
        let summary = try top.first { $0.key == "summary" }.map { try string($0.value, .named("summary")) } ?? "mapped from \(file)"
        let declaredCollections = try collections(top, in: root)
        let declarations = try entityDeclarations(top, in: root)
        let schema: Schema
        do {
            schema = try Schema(name: name, entities: declarations.map(\.entity))
        } catch {
            throw locate(error, declarations)
        }
        let collections = try elementCollections(declaredCollections, schema: schema, declarations: declarations)
        let mappings = try entityMappings(declarations, schema: schema)
        try checkReadability(mappings, schema: schema, elements: Set(collections.map(\.entity)), declarations: declarations)
        let shared = try sharedEntities(top, schema: schema)
        let screenQuery = try top.first { $0.key == "screen_query" }.map { try string($0.value, .named("screen_query")) }
        var mapping = PayloadMapping(
            name: name, summary: summary, collections: collections, schema: schema, entities: mappings, shared: shared,
            screenQuery: screenQuery)
        mapping.jsonLines = try readsJSONLines(top, collections: collections)
        return mapping
    }

    /// The document's root node; Yams's errors become this file's, with their line and column.
    func document(_ yaml: String) throws -> Node {
        do {
            guard let node = try Yams.compose(yaml: yaml) else { throw fail(nil, .emptyFile) }
            return node
        } catch let error as MappingError {
            throw error
        } catch let error as YamlError {
            throw yamlFailure(error)
        } catch {
            throw fail(nil, .notYAML("\(error)"))
        }
    }

    /// Each entry of `entities`, in order: at least one, and at most `MappingLimit.entities`,
    /// refused by their count before any is read.
    func entityDeclarations(_ top: [Entry], in root: Node) throws -> [EntityDeclaration] {
        let entitiesNode = try required(top, "entities", in: root)
        if case .mapping(let declared) = entitiesNode, declared.count > MappingLimit.entities.limit {
            throw MappingError.overLimit(
                .entities, found: declared.count, file: file, line: entitiesNode.mark?.line, column: entitiesNode.mark?.column)
        }
        let entityEntries = try entries(entitiesNode, .entities, allowed: nil)
        guard !entityEntries.isEmpty else { throw fail(entitiesNode, .noEntities) }
        var declarations: [EntityDeclaration] = []
        for entry in entityEntries {
            declarations.append(try entity(entry))
        }
        return declarations
    }

    /// The declared collections with their entities found in the schema. An element is read at the
    /// top level, so nothing ever sets an owner relationship of its entity.
    func elementCollections(
        _ declaredCollections: [CollectionDeclaration], schema: Schema, declarations: [EntityDeclaration]
    ) throws -> [ElementCollection] {
        var collections: [ElementCollection] = []
        for declared in declaredCollections {
            guard let entity = schema.index(of: declared.entity) else {
                throw fail(
                    declared.node,
                    .undeclaredElement(declared.entity, collection: declared.collection, declared: schema.entities.map(\.name)))
            }
            if let owner = declarations[entity].toOne.firstIndex(where: { $0.source == .owner }) {
                throw fail(
                    declarations[entity].toOne[owner].node,
                    .elementWithOwner(entity: declared.entity, relationship: schema.entities[entity].toOne[owner].name))
            }
            collections.append(ElementCollection(path: declared.path, entity: entity, headerRow: declared.headerRow))
        }
        return collections
    }

    /// Each declaration resolved against the whole schema, in the order they are declared.
    func entityMappings(_ declarations: [EntityDeclaration], schema: Schema) throws -> [EntityMapping] {
        // Per entity, its owner relationships by target: a children list finds its link by hashing,
        // not by searching the child's relationships once per list.
        let ownerLinks = declarations.indices.map { entity in
            Dictionary(
                grouping: declarations[entity].toOne.indices.filter { declarations[entity].toOne[$0].source == .owner },
                by: { schema.entities[entity].toOne[$0].target })
        }
        var mappings: [EntityMapping] = []
        for (index, declaration) in declarations.enumerated() {
            mappings.append(try resolve(declaration, at: index, schema: schema, ownerLinks: ownerLinks))
        }
        return mappings
    }

    /// The schema's indexes of the entities `shared` lists; none when it is not given.
    func sharedEntities(_ top: [Entry], schema: Schema) throws -> [Int] {
        guard let entry = top.first(where: { $0.key == "shared" }) else { return [] }
        guard case .sequence(let names) = entry.value else { throw fail(entry.value, .sharedNotAList) }
        var shared: [Int] = []
        for node in names {
            let entityName = try string(node, .sharedEntity)
            guard let index = schema.index(of: entityName) else {
                throw fail(node, .undeclaredEntity(entityName, namedBy: .shared))
            }
            shared.append(index)
        }
        return shared
    }

    /// Whether `format` says json-lines (json, one document, is the default). A line holds one
    /// element, so json-lines takes a single collection: the document's own.
    func readsJSONLines(_ top: [Entry], collections: [ElementCollection]) throws -> Bool {
        guard let format = top.first(where: { $0.key == "format" }) else { return false }
        switch try string(format.value, .named("format")) {
        case "json": return false
        case "json-lines":
            guard collections.count == 1, collections[0].path.segments.isEmpty else {
                throw fail(format.value, .jsonLinesWithCollections)
            }
            return true
        case let other:
            throw fail(format.value, .notAChoice(other, of: .format))
        }
    }

    /// A collection as the file declares it, its entity still a name.
    struct CollectionDeclaration {
        let path: JSONPath
        let entity: String
        let headerRow: Bool
        let node: Node
        /// The collection's path when listed in `collections`; nil for `element`: how errors name
        /// where the entity was given.
        let collection: String?
    }

    /// `elements` (default: the document itself), `element` and `header_row`, or a list of
    /// `collections`, each `{path, entity, header_row}`, in the order they are read.
    func collections(_ top: [Entry], in root: Node) throws -> [CollectionDeclaration] {
        func elementsPath(_ node: Node, _ field: MappingProblem.Field) throws -> JSONPath {
            let elements = try path(node, field)
            if elements.segments.contains(where: { if case .position = $0 { return true } else { return false } }) {
                throw fail(node, .positionInCollectionPath(field))
            }
            return elements
        }
        guard let listed = top.first(where: { $0.key == "collections" }) else {
            let elements = try top.first { $0.key == "elements" }.map { try elementsPath($0.value, .named("elements")) } ?? JSONPath([])
            let elementNode = try required(top, "element", in: root)
            let headerRow = try top.first { $0.key == "header_row" }.map { try bool($0.value, .named("header_row")) } ?? false
            return [
                CollectionDeclaration(
                    path: elements, entity: try string(elementNode, .named("element")), headerRow: headerRow, node: elementNode, collection: nil)
            ]
        }
        if let single = top.first(where: { ["elements", "element", "header_row"].contains($0.key) }) {
            throw fail(single.keyNode, .singleCollectionKey(single.key))
        }
        guard case .sequence(let items) = listed.value, !items.isEmpty else {
            throw fail(listed.value, .collectionsNotAList)
        }
        var declared: [CollectionDeclaration] = []
        var listedPaths: Set<JSONPath> = []
        for item in items {
            let fields = try entries(item, .collection, allowed: ["path", "entity", "header_row"])
            let pathNode = try required(fields, "path", in: item)
            let path = try elementsPath(pathNode, .collectionPath)
            guard listedPaths.insert(path).inserted else { throw fail(pathNode, .collectionTwice(path: path.description)) }
            let entityNode = try required(fields, "entity", in: item)
            let headerRow = try fields.first { $0.key == "header_row" }.map { try bool($0.value, .named("header_row")) } ?? false
            declared.append(
                CollectionDeclaration(
                    path: path, entity: try string(entityNode, .named("entity")), headerRow: headerRow, node: entityNode,
                    collection: path.description))
        }
        return declared
    }

    // MARK: One entity

    struct EntityDeclaration {
        let node: Node
        let entity: Entity
        let key: KeyDeclaration
        let attributes: [JSONPath]
        let toOne: [(node: Node, source: ToOneSource)]
        let manyToMany: [(node: Node, source: SetSource)]
        let children: [(node: Node, path: JSONPath, entity: String)]
        let absentMembers: AbsentMembers
    }

    enum KeyDeclaration {
        case path(JSONPath, fallback: (String, Node)?)
        case template(String, Node)
    }

    /// One entry of `entities` as written: its name, key, columns and relationships. What they name
    /// is checked once every entity is declared (`resolve`).
    func entity(_ entry: Entry) throws -> EntityDeclaration {
        let name = entry.key
        guard !name.hasPrefix("importbench_"), !name.hasPrefix("sqlite_") else {
            throw fail(entry.keyNode, .reservedEntityName(name))
        }
        let fields = try entries(entry.value, .entity(name), allowed: ["key", "attributes", "to_one", "many_to_many", "children", "absent"])
        let absentMembers = try fields.first { $0.key == "absent" }.map { try self.absentMembers($0.value) } ?? .keep
        var columns = ColumnClaims(entity: name)
        let keyNode = try required(fields, "key", in: entry.keyNode, missing: .noNaturalKey(entity: name))
        let key = try self.key(keyNode, of: name)
        try claim(key.column, at: keyNode, in: &columns)
        let attributes = try self.attributes(fields.first { $0.key == "attributes" }?.value, of: name, claiming: &columns)
        let toOne = try toOneRelationships(fields.first { $0.key == "to_one" }?.value, of: name, claiming: &columns)
        let manyToMany = try manyToManyRelationships(fields.first { $0.key == "many_to_many" }?.value, of: name)
        let children = try self.children(fields.first { $0.key == "children" }?.value, of: name)
        return EntityDeclaration(
            node: entry.keyNode,
            entity: Entity(
                name, key: Attribute(key.column, .text), attributes: attributes.attributes, toOne: toOne.relationships,
                manyToMany: manyToMany.relationships),
            key: key.declaration, attributes: attributes.paths, toOne: toOne.sources, manyToMany: manyToMany.sources, children: children,
            absentMembers: absentMembers)
    }

    /// The column names an entity has taken so far: a name is taken once (see `claim`).
    struct ColumnClaims {
        let entity: String
        var names: Set<String> = []
    }

    /// Takes `column` for the entity, unless bench keeps the name for its own columns, the entity
    /// has a column of that name already, or it has `MappingLimit.columns` of them.
    func claim(_ column: String, at node: Node, in claims: inout ColumnClaims) throws {
        guard !["pk", Schema.generationColumn, Schema.listedColumn].contains(column) else {
            throw fail(node, .reservedColumn(column, entity: claims.entity))
        }
        if claims.names.contains(column) { throw fail(node, .columnTwice(column, entity: claims.entity)) }
        if claims.names.count == MappingLimit.columns.limit {
            throw MappingError.overLimit(.columns, found: nil, file: file, line: node.mark?.line, column: node.mark?.column)
        }
        claims.names.insert(column)
    }

    /// The natural key and its column's name. A bare path names the column after its last member;
    /// a mapping gives a path (with a fallback, or not) or a compose, and may name the column.
    func key(_ keyNode: Node, of name: String) throws -> (declaration: KeyDeclaration, column: String) {
        switch keyNode {
        case .scalar:
            let keyPath = try path(keyNode, .named("key"))
            guard let column = keyPath.lastMember else {
                throw fail(keyNode, .keyColumnUnnamed)
            }
            return (.path(keyPath, fallback: nil), column)
        default:
            let keyFields = try entries(keyNode, .key(of: name), allowed: ["column", "path", "compose", "fallback"])
            let fallbackNode = keyFields.first { $0.key == "fallback" }?.value
            let pathNode = keyFields.first { $0.key == "path" }?.value
            let composeNode = keyFields.first { $0.key == "compose" }?.value
            switch (pathNode, composeNode) {
            case (let pathNode?, nil):
                let keyPath = try path(pathNode, .keyPath)
                let key = KeyDeclaration.path(keyPath, fallback: try fallbackNode.map { (try string($0, .named("fallback")), $0) })
                let column = try keyFields.first { $0.key == "column" }.map { try string($0.value, .named("column")) } ?? keyPath.lastMember ?? "key"
                return (key, column)
            case (nil, let composeNode?):
                if let fallbackNode {
                    throw fail(fallbackNode, .fallbackWithCompose(entity: name))
                }
                let key = KeyDeclaration.template(try string(composeNode, .named("compose")), composeNode)
                let column = try keyFields.first { $0.key == "column" }.map { try string($0.value, .named("column")) } ?? "key"
                return (key, column)
            default:
                throw fail(keyNode, .keyNeedsPathOrCompose(entity: name))
            }
        }
    }

    /// The attributes and the paths they are read at: `name: TYPE` reads member `name`, `name:
    /// {type, path}` the path. Each claims its column before its type is read.
    func attributes(
        _ node: Node?, of name: String, claiming columns: inout ColumnClaims
    ) throws -> (attributes: [Attribute], paths: [JSONPath]) {
        guard let node else { return ([], []) }
        var attributes: [Attribute] = []
        var paths: [JSONPath] = []
        for attribute in try entries(node, .attributes(of: name), allowed: nil) {
            try claim(attribute.key, at: attribute.keyNode, in: &columns)
            switch attribute.value {
            case .scalar:
                attributes.append(Attribute(attribute.key, try type(attribute.value)))
                paths.append(JSONPath([.member(attribute.key)]))
            default:
                let spec = try entries(attribute.value, .attribute(attribute.key), allowed: ["type", "path"])
                attributes.append(Attribute(attribute.key, try type(required(spec, "type", in: attribute.value))))
                paths.append(try spec.first { $0.key == "path" }.map { try path($0.value, .named("path")) } ?? JSONPath([.member(attribute.key)]))
            }
        }
        return (attributes, paths)
    }

    /// The to-one relationships and where each is read; each claims its column once it is read.
    func toOneRelationships(
        _ node: Node?, of name: String, claiming columns: inout ColumnClaims
    ) throws -> (relationships: [ToOneRelationship], sources: [(node: Node, source: ToOneSource)]) {
        guard let node else { return ([], []) }
        var relationships: [ToOneRelationship] = []
        var sources: [(node: Node, source: ToOneSource)] = []
        for entry in try entries(node, .toOneRelationships(of: name), allowed: nil) {
            let (relationship, source) = try toOne(entry)
            try claim(relationship.column, at: entry.keyNode, in: &columns)
            relationships.append(relationship)
            sources.append((entry.keyNode, source))
        }
        return (relationships, sources)
    }

    /// One to-one relationship: its target, and whether it is the owner (the object whose children
    /// list holds this one), an embedded object, the target's key, or the object when present.
    func toOne(_ relationship: Entry) throws -> (ToOneRelationship, ToOneSource) {
        let spec = try entries(
            relationship.value, .toOne(relationship.key), allowed: ["entity", "owner", "embedded", "key", "listing"])
        let target = try string(required(spec, "entity", in: relationship.value), .named("entity"))
        let owner = try spec.first { $0.key == "owner" }.map { try bool($0.value, .named("owner")) } ?? false
        let embedded = try spec.first { $0.key == "embedded" }.map { try path($0.value, .named("embedded")) }
        let keyPath = try spec.first { $0.key == "key" }.map { try path($0.value, .named("key")) }
        let source: ToOneSource
        switch (owner, embedded, keyPath) {
        case (true, nil, nil): source = .owner
        case (false, let embedded?, nil): source = .embedded(embedded)
        case (false, nil, let keyPath?): source = .key(keyPath)
        case (false, let embedded?, let keyPath?): source = .embeddedOrKey(embedded, key: keyPath)
        default:
            throw fail(relationship.value, .toOneNeedsSource(relationship.key))
        }
        let listing = try spec.first { $0.key == "listing" }.map { try self.listing($0.value) }
        if listing != nil, !owner {
            throw fail(relationship.value, .listingWithoutOwner)
        }
        return (ToOneRelationship(relationship.key, to: target, owner: owner, listing: listing ?? .complete), source)
    }

    /// The many-to-many relationships, each read from an array of objects or an array of keys.
    func manyToManyRelationships(
        _ node: Node?, of name: String
    ) throws -> (relationships: [ManyToManyRelationship], sources: [(node: Node, source: SetSource)]) {
        guard let node else { return ([], []) }
        var relationships: [ManyToManyRelationship] = []
        var names: Set<String> = []
        var sources: [(node: Node, source: SetSource)] = []
        for relationship in try entries(node, .manyToManyRelationships(of: name), allowed: nil) {
            let spec = try entries(relationship.value, .manyToMany(relationship.key), allowed: ["entity", "embedded", "keys", "listing"])
            let target = try string(required(spec, "entity", in: relationship.value), .named("entity"))
            let embedded = try spec.first { $0.key == "embedded" }.map { try path($0.value, .named("embedded")) }
            let keys = try spec.first { $0.key == "keys" }.map { try path($0.value, .named("keys")) }
            let source: SetSource
            switch (embedded, keys) {
            case (let embedded?, nil): source = .embedded(embedded)
            case (nil, let keys?): source = .keys(keys)
            default:
                throw fail(relationship.value, .manyToManyNeedsSource(relationship.key))
            }
            let listing = try spec.first { $0.key == "listing" }.map { try self.listing($0.value) } ?? .complete
            guard names.insert(relationship.key).inserted else {
                throw fail(relationship.keyNode, .manyToManyTwice(relationship.key, entity: name))
            }
            relationships.append(ManyToManyRelationship(relationship.key, to: target, listing: listing))
            sources.append((relationship.keyNode, source))
        }
        return (relationships, sources)
    }

    /// The children lists: at each path, an array of objects of the named entity.
    func children(_ node: Node?, of name: String) throws -> [(node: Node, path: JSONPath, entity: String)] {
        guard let node else { return [] }
        var children: [(node: Node, path: JSONPath, entity: String)] = []
        for child in try entries(node, .children(of: name), allowed: nil) {
            children.append((child.keyNode, try path(child.keyNode, .childrenPath), try string(child.value, .childEntity)))
        }
        return children
    }

    /// What needs the whole schema: children lists and composed keys. `ownerLinks[e][t]`: entity e's
    /// owner relationships to the entity named t.
    func resolve(_ declaration: EntityDeclaration, at index: Int, schema: Schema, ownerLinks: [[String: [Int]]]) throws -> EntityMapping {
        let entity = schema.entities[index]
        var children: [ChildList] = []
        for child in declaration.children {
            guard let childIndex = schema.index(of: child.entity) else {
                throw fail(child.node, .undeclaredEntity(child.entity, namedBy: .children(path: child.path.description, of: entity.name)))
            }
            let links = ownerLinks[childIndex][entity.name] ?? []
            guard links.count == 1, let link = links.first else {
                throw fail(
                    child.node,
                    links.isEmpty
                        ? .childWithoutOwner(child: child.entity, parent: entity.name) : .severalOwners(child: child.entity, parent: entity.name))
            }
            children.append(ChildList(path: child.path, entity: childIndex, ownerRelationship: link))
        }
        let key: KeySource
        switch declaration.key {
        case .path(let path, let fallback):
            key = .path(path, fallback: try fallback.map { try parts(of: $0.0, at: $0.1, entity: entity) })
        case .template(let template, let node): key = .composed(try parts(of: template, at: node, entity: entity))
        }
        var mapping = EntityMapping(
            key: key, attributes: declaration.attributes, toOne: declaration.toOne.map(\.source),
            manyToMany: declaration.manyToMany.map(\.source), children: children)
        mapping.absentMembers = declaration.absentMembers
        return mapping
    }

    /// What the reader cannot do with a mapping that is otherwise well formed: find more than 64
    /// members of one object in one pass, or give `{@index}` a meaning where an object is not read
    /// from a list (the element itself, an embedded to-one target), where every object would get 0.
    func checkReadability(
        _ mappings: [EntityMapping], schema: Schema, elements: Set<Int>, declarations: [EntityDeclaration]
    ) throws {
        var readAlone = elements
        for (entity, mapping) in mappings.enumerated() {
            for (relationship, source) in mapping.toOne.enumerated() {
                switch source {
                case .embedded, .embeddedOrKey: readAlone.insert(schema.toOneTargets[entity][relationship])
                case .owner, .key: break
                }
            }
        }
        for (entity, mapping) in mappings.enumerated() {
            let node = declarations[entity].node
            if mapping.key.composedParts.contains(.position), readAlone.contains(entity) {
                throw fail(node, .positionInKeyReadAlone(entity: schema.entities[entity].name))
            }
            var paths = mapping.attributes + mapping.children.map(\.path)
            if case .path(let path, _) = mapping.key { paths.append(path) }
            for case .path(let path) in mapping.key.composedParts { paths.append(path) }
            for source in mapping.toOne {
                switch source {
                case .owner: break
                case .embedded(let path), .key(let path): paths.append(path)
                case .embeddedOrKey(let path, let key): paths += [path, key]
                }
            }
            for source in mapping.manyToMany {
                switch source {
                case .embedded(let path), .keys(let path): paths.append(path)
                }
            }
            // Each object on the paths' way is numbered once, by the object above it and the
            // segment that leads to it, so the paths are read in time and memory linear in their
            // length (keying by whole prefixes copied every prefix of every path).
            var objects = [ObjectStep(above: -1, segment: nil)]
            var numbers: [ObjectStep: Int] = [:]
            var members: [Int: Set<String>] = [:]
            for path in paths {
                var object = 0
                for segment in path.segments {
                    if case .member(let name) = segment { members[object, default: []].insert(name) }
                    let step = ObjectStep(above: object, segment: segment)
                    if let number = numbers[step] {
                        object = number
                    } else {
                        numbers[step] = objects.count
                        object = objects.count
                        objects.append(step)
                    }
                }
            }
            if let (object, names) = members.first(where: { $0.value.count > 64 }) {
                var prefix: [JSONPath.Segment] = []
                var at = object
                while let segment = objects[at].segment {
                    prefix.append(segment)
                    at = objects[at].above
                }
                throw fail(
                    node,
                    .tooManyMembers(
                        entity: schema.entities[entity].name, count: names.count,
                        object: prefix.isEmpty ? nil : JSONPath(prefix.reversed()).description))
            }
        }
    }

    /// An object a path passes through: the object above it (-1 for the one read) and the segment
    /// that leads from there to it.
    struct ObjectStep: Hashable {
        let above: Int
        let segment: JSONPath.Segment?
    }

    /// `{message}/{user}/{type}`: a to-one relationship's name stands for its target's key,
    /// `{@index}` for the position in the list, anything else is a path to a value of the object.
    func parts(of template: String, at node: Node, entity: Entity) throws -> [KeyPart] {
        var parts: [KeyPart] = []
        // The first relationship of each name (names are distinct), found by hashing for each part.
        let toOneIndexes = Dictionary(entity.toOne.indices.map { (entity.toOne[$0].name, $0) }, uniquingKeysWith: { first, _ in first })
        var rest = template[...]
        while !rest.isEmpty {
            guard let open = rest.firstIndex(of: "{") else {
                if rest.contains("}") { throw fail(node, .badCompose(.unopenedBrace, template: template)) }
                parts.append(.literal(String(rest)))
                break
            }
            if open > rest.startIndex {
                let literal = rest[..<open]
                if literal.contains("}") { throw fail(node, .badCompose(.unopenedBrace, template: template)) }
                parts.append(.literal(String(literal)))
            }
            guard let close = rest[open...].firstIndex(of: "}") else { throw fail(node, .badCompose(.unclosedBrace, template: template)) }
            let name = String(rest[rest.index(after: open)..<close])
            if name == "@index" {
                parts.append(.position)
            } else if let relationship = toOneIndexes[name] {
                parts.append(.relationship(relationship))
            } else {
                switch JSONPath.parse(name) {
                case .success(let path) where !path.segments.isEmpty: parts.append(.path(path))
                case .success: throw fail(node, .badCompose(.emptyPart, template: template))
                case .failure(let error): throw placed(error, at: node) { .badCompose(.badPath($0, path: $1), template: template) }
                }
            }
            rest = rest[rest.index(after: close)...]
        }
        guard parts.contains(where: { if case .literal = $0 { return false } else { return true } }) else {
            throw fail(node, .badCompose(.noPart, template: template))
        }
        return parts
    }

    /// The schema's error in the file, at the declaration it is about, as the file's problem.
    func locate(_ problem: SchemaProblem, _ declarations: [EntityDeclaration]) -> MappingError {
        switch problem {
        case .duplicateEntity(let name):
            return fail(declarations.first { $0.entity.name == name }?.node, .entityTwice(name))
        case .unknownTarget(let entity, let relationship, let target):
            return fail(
                relationshipNode(entity, relationship, declarations),
                .undeclaredEntity(target, namedBy: .relationship(entity: entity, relationship: relationship)))
        case .targetAfterSource(let entity, let relationship, let target):
            return fail(
                relationshipNode(entity, relationship, declarations),
                .targetDeclaredLater(entity: entity, relationship: relationship, target: target))
        case .nameTaken(_, let entity, let relationship, _):
            let node = relationship.map { relationshipNode(entity, $0, declarations) } ?? declarations.first { $0.entity.name == entity }?.node
            return MappingError(file: file, line: node?.mark?.line, column: node?.mark?.column, problem: .schema(problem))
        }
    }

    func relationshipNode(_ entity: String, _ relationship: String, _ declarations: [EntityDeclaration]) -> Node? {
        guard let declaration = declarations.first(where: { $0.entity.name == entity }) else { return nil }
        if let index = declaration.entity.toOne.firstIndex(where: { $0.name == relationship }) { return declaration.toOne[index].node }
        if let index = declaration.entity.manyToMany.firstIndex(where: { $0.name == relationship }) { return declaration.manyToMany[index].node }
        return declaration.node
    }

    /// Refuses a document of more than `MappingLimit.values` values, counting an alias each time it
    /// is used (Yams hands an alias over as the node it names, so the walk below would meet it
    /// again and again): stops as soon as the limit is passed, so it costs at most the limit.
    /// Located at the furthest place in the file the walk had reached: a walk in document order
    /// meets marks in order, and a node an alias repeats has the earlier mark of its anchor.
    func countValues(_ root: Node) throws {
        let limit = MappingLimit.values.limit
        var count = 0
        var furthest: Mark?
        var pending = [root]
        while let node = pending.popLast() {
            count += 1
            if let mark = node.mark, furthest.map({ ($0.line, $0.column) < (mark.line, mark.column) }) ?? true { furthest = mark }
            guard count <= limit else {
                throw MappingError.overLimit(.values, found: nil, file: file, line: furthest?.line, column: furthest?.column)
            }
            switch node {
            case .mapping(let mapping):
                for (key, value) in mapping.reversed() { pending += [value, key] }
            case .sequence(let sequence):
                pending += sequence.reversed()
            default:
                break
            }
        }
    }

    // MARK: Values

    /// A mapping's entries in order; a key outside `allowed` (when given) or given twice is an error.
    func entries(_ node: Node, _ section: MappingProblem.Section, allowed: [String]?) throws -> [Entry] {
        guard case .mapping(let mapping) = node else { throw fail(node, .notAMapping(section)) }
        var result: [Entry] = []
        var seen: Set<String> = []
        for (keyNode, value) in mapping {
            guard case .scalar(let scalar) = keyNode else { throw fail(keyNode, .keyNotAName(in: section)) }
            if let allowed, !allowed.contains(scalar.string) {
                throw fail(keyNode, .unknownKey(scalar.string, in: section, allowed: allowed))
            }
            guard seen.insert(scalar.string).inserted else { throw fail(keyNode, .keyTwice(scalar.string, in: section)) }
            result.append((scalar.string, keyNode, value))
        }
        return result
    }

    /// The value of `key`; its absence is `missing`, by default `missingKey`.
    func required(_ entries: [Entry], _ key: String, in node: Node, missing: MappingProblem? = nil) throws -> Node {
        guard let entry = entries.first(where: { $0.key == key }) else { throw fail(node, missing ?? .missingKey(key)) }
        return entry.value
    }

    func string(_ node: Node, _ field: MappingProblem.Field) throws -> String {
        guard case .scalar(let scalar) = node else { throw fail(node, .notSingleValue(field)) }
        return scalar.string
    }

    func bool(_ node: Node, _ field: MappingProblem.Field) throws -> Bool {
        switch try string(node, field) {
        case "true", "yes": return true
        case "false", "no": return false
        case let other: throw fail(node, .notAChoice(other, of: .boolean(field)))
        }
    }

    func path(_ node: Node, _ field: MappingProblem.Field) throws -> JSONPath {
        switch JSONPath.parse(try string(node, field)) {
        case .success(let path): return path
        case .failure(let error): throw placed(error, at: node) { .badPath(field, $0, path: $1) }
        }
    }

    /// A path's error where the path is: a limit as it is, a syntax error as `syntaxError` makes it
    /// the file's problem (naming what the path is for).
    func placed(
        _ error: MappingError, at node: Node, as syntaxError: (MappingProblem.PathSyntax, String) -> MappingProblem
    ) -> MappingError {
        guard case .pathSyntax(let syntax, let path) = error.problem else {
            return MappingError(file: file, line: node.mark?.line, column: node.mark?.column, problem: error.problem)
        }
        return fail(node, syntaxError(syntax, path))
    }

    func type(_ node: Node) throws -> ColumnType {
        let name = try string(node, .type)
        switch name {
        case "text": return .text
        case "integer": return .integer
        case "real": return .real
        case "boolean": return .boolean
        default: throw fail(node, .unknownType(name))
        }
    }

    func absentMembers(_ node: Node) throws -> AbsentMembers {
        let name = try string(node, .named("absent"))
        guard let rule = AbsentMembers(rawValue: name) else {
            throw fail(node, .notAChoice(name, of: .absent))
        }
        return rule
    }

    func listing(_ node: Node) throws -> PayloadListing {
        let name = try string(node, .named("listing"))
        guard let listing = PayloadListing(rawValue: name) else {
            throw fail(node, .notAChoice(name, of: .listing))
        }
        return listing
    }

    func yamlFailure(_ error: YamlError) -> MappingError {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            return MappingError(file: file, line: mark.line, column: mark.column, problem: .invalidYAML(problem))
        case .duplicatedKeysInMapping(let duplicates, let context):
            return MappingError(file: file, line: context.mark.line, column: context.mark.column, problem: .yamlKeysTwice(duplicates))
        default:
            return MappingError(file: file, problem: .invalidYAML("\(error)"))
        }
    }
}
