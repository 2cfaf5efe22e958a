import Foundation
import ImportBenchCore
import ImportBenchPayload
import Testing

/// A mapping's problems are values (issue 48): each case words itself in `description`, the one
/// place the loader's sentences live, into the text it had when call sites wrote it.
@Suite("Mapping problems")
struct MappingProblemTests {
    /// Each problem, and its text as the loader's call sites wrote it before problems were values.
    static let snapshots: [(MappingProblem, String)] = fileSnapshots + valueSnapshots + declarationSnapshots + relationshipSnapshots

    static let fileSnapshots: [(MappingProblem, String)] = [
        (.unreadable(.directory), "cannot read the mapping file (it is a directory)"),
        (.unreadable(.notUTF8), "cannot read the mapping file (it is not UTF-8 text)"),
        (
            .unreadable(.failed("The operation could not be completed. The file doesn’t exist.")),
            "cannot read the mapping file (The operation could not be completed. The file doesn’t exist.)"
        ),
        (.emptyFile, "the file is empty; a mapping needs name, element and entities"),
        (.invalidYAML("did not find expected node content"), "not valid YAML: did not find expected node content"),
        (.notYAML("the parser stopped"), "not YAML: the parser stopped"),
        (.yamlKeysTwice(["name"]), "'name' appears twice in one mapping"),
        (.yamlKeysTwice(["name", "element"]), "'name', 'element' appears twice in one mapping"),
        (.unexpected("an error of the loader's own"), "an error of the loader's own"),
        (.schema(.duplicateEntity("order")), "schema declares entity 'order' twice"),
        (.overLimit(.pathSegments, limit: 64, found: 65), "a path of 65 segments (member names and [positions]); a path has at most 64"),
    ]

    static let valueSnapshots: [(MappingProblem, String)] = [
        (.notAMapping(.topLevel), "the mapping must be a mapping of names to values"),
        (.notAMapping(.entities), "entities must be a mapping of names to values"),
        (.notAMapping(.collection), "a collection must be a mapping of names to values"),
        (.notAMapping(.entity("a")), "entity 'a' must be a mapping of names to values"),
        (.notAMapping(.key(of: "a")), "the key of 'a' must be a mapping of names to values"),
        (.notAMapping(.attributes(of: "a")), "the attributes of 'a' must be a mapping of names to values"),
        (.notAMapping(.attribute("v")), "attribute 'v' must be a mapping of names to values"),
        (.notAMapping(.toOneRelationships(of: "a")), "the to_one relationships of 'a' must be a mapping of names to values"),
        (.notAMapping(.toOne("b")), "to_one 'b' must be a mapping of names to values"),
        (.notAMapping(.manyToManyRelationships(of: "a")), "the many_to_many relationships of 'a' must be a mapping of names to values"),
        (.notAMapping(.manyToMany("b")), "many_to_many 'b' must be a mapping of names to values"),
        (.notAMapping(.children(of: "a")), "the children of 'a' must be a mapping of names to values"),
        (.keyNotAName(in: .topLevel), "a key in the mapping must be a plain name"),
        (
            .unknownKey(
                "elemnt", in: .topLevel,
                allowed: ["name", "summary", "format", "elements", "element", "header_row", "collections", "entities", "shared", "screen_query"]),
            "unknown key 'elemnt' in the mapping; expected name, summary, format, elements, element, header_row, collections, entities, shared, screen_query"
        ),
        (
            .unknownKey("bogus", in: .key(of: "a"), allowed: ["column", "path", "compose", "fallback"]),
            "unknown key 'bogus' in the key of 'a'; expected column, path, compose, fallback"
        ),
        (.keyTwice("v", in: .attributes(of: "a")), "'v' appears twice in the attributes of 'a'"),
        (.missingKey("type"), "'type' is missing"),
        (.notSingleValue(.named("name")), "name must be a single value, not a list or a mapping"),
        (.notSingleValue(.collectionPath), "a collection's path must be a single value, not a list or a mapping"),
        (.notSingleValue(.sharedEntity), "a shared entity must be a single value, not a list or a mapping"),
        (.notSingleValue(.keyPath), "key path must be a single value, not a list or a mapping"),
        (.notSingleValue(.type), "a type must be a single value, not a list or a mapping"),
        (.notSingleValue(.childrenPath), "a children path must be a single value, not a list or a mapping"),
        (.notSingleValue(.childEntity), "the child entity must be a single value, not a list or a mapping"),
        (
            .notAChoice("csv", of: .format),
            "format must be json (one document, the default) or json-lines (one element per line, whatever the file's name), not 'csv'"
        ),
        (
            .notAChoice("skip", of: .absent),
            "absent must be keep (a member an object leaves out keeps its stored value) or null (it sets NULL), not 'skip'"
        ),
        (
            .notAChoice("some", of: .listing),
            "listing must be complete (the payload lists every child) or partial (a page of them), not 'some'"
        ),
        (.notAChoice("maybe", of: .boolean(.named("owner"))), "owner must be true or false, not 'maybe'"),
        (.unknownType("txt"), "unknown type 'txt'; expected text, integer, real or boolean"),
        (.pathSyntax(.emptyMember, path: "a..b"), "an empty member name in 'a..b'"),
        (.pathSyntax(.positionExpected, path: "a[x]"), "'[' must hold a position such as [0] in 'a[x]'"),
        (.pathSyntax(.separatorExpected, path: "a[0]b"), "'.' or '[' expected after ']' in 'a[0]b'"),
        (.pathSyntax(.endsWithDot, path: "a."), "'a.' ends with '.'"),
        (.pathSyntax(.unopenedBracket, path: "a]"), "']' without '[' in 'a]'"),
        (.badPath(.named("path"), .emptyMember, path: "a..b"), "path: an empty member name in 'a..b'"),
        (.badPath(.keyPath, .endsWithDot, path: "id."), "key path: 'id.' ends with '.'"),
    ]

    static let declarationSnapshots: [(MappingProblem, String)] = [
        (
            .positionInCollectionPath(.named("elements")),
            "elements names a collection by member names only (such as data.items), not positions"
        ),
        (
            .singleCollectionKey("element"),
            "'element' is for a document of one collection; with collections, give each its path, entity and header_row"
        ),
        (
            .collectionsNotAList,
            "collections must be a list of {path: MEMBERS, entity: NAME}, in the order to read them (targets first)"
        ),
        (.collectionTwice(path: "a"), "collection 'a' is listed twice"),
        (.undeclaredElement("b", collection: nil, declared: ["a", "c"]), "element names entity 'b', which entities does not declare (a, c)"),
        (
            .undeclaredElement("b", collection: "a", declared: ["a", "c"]),
            "collection 'a' names entity 'b', which entities does not declare (a, c)"
        ),
        (
            .elementWithOwner(entity: "a", relationship: "b"),
            "'a' is a top-level element, so it has no owner: its relationship 'b' can never be set"
        ),
        (
            .jsonLinesWithCollections,
            "format: json-lines reads one element per line: it takes element alone, without elements or collections"
        ),
        (.sharedNotAList, "shared must be a list of entity names"),
        (.noEntities, "entities is empty; declare at least one entity"),
        (.reservedEntityName("importbench_x"), "entity name 'importbench_x' is reserved for bench's and SQLite's own tables"),
        (.entityTwice("a"), "entity 'a' is declared twice"),
        (.undeclaredEntity("nope", namedBy: .shared), "shared names entity 'nope', which entities does not declare"),
        (
            .undeclaredEntity("nope", namedBy: .children(path: "lines", of: "a")),
            "children 'lines' of 'a' names entity 'nope', which entities does not declare"
        ),
        (
            .undeclaredEntity("nope", namedBy: .relationship(entity: "a", relationship: "b")),
            "a.b points to entity 'nope', which entities does not declare"
        ),
        (
            .targetDeclaredLater(entity: "a", relationship: "b", target: "b"),
            "a.b points to 'b', declared later: declare entities in dependency order (targets first)"
        ),
        (.noNaturalKey(entity: "a"), "'key' is missing in entity 'a' (where its natural key is)"),
        (.keyColumnUnnamed, "the key's path names no member to name its column after; write key: {column: ..., path: ...}"),
        (
            .keyNeedsPathOrCompose(entity: "a"),
            "the key of 'a' needs exactly one of path (where it is) or compose (how to build it)"
        ),
        (.fallbackWithCompose(entity: "a"), "a fallback is for a key read at a path: compose already builds the key of 'a'"),
        (.badCompose(.unopenedBrace, template: "a}b"), "'}' without '{' in compose 'a}b'"),
        (.badCompose(.unclosedBrace, template: "{id"), "'{' without '}' in compose '{id'"),
        (.badCompose(.emptyPart, template: "x{}"), "an empty {} in compose 'x{}'"),
        (.badCompose(.noPart, template: "fixed"), "compose 'fixed' has no {part}: every object would get the same key"),
        (.badCompose(.badPath(.emptyMember, path: "a..b"), template: "{a..b}"), "in compose '{a..b}': an empty member name in 'a..b'"),
        (
            .positionInKeyReadAlone(entity: "a"),
            "the key of 'a' uses {@index}, but it is also read on its own (as the element, or embedded as a to_one), where it has no position; compose it from a key or a value"
        ),
        (.reservedColumn("pk", entity: "a"), "column 'pk' of 'a' is bench's own; name it otherwise"),
        (.columnTwice("id", entity: "a"), "'a' has two columns named 'id'"),
        (
            .tooManyMembers(entity: "a", count: 66, object: nil),
            "'a' reads 66 members of one object (the object itself); a mapping reads at most 64 from one object"
        ),
        (.tooManyMembers(entity: "a", count: 65, object: "d"), "'a' reads 65 members of one object (d); a mapping reads at most 64 from one object"),
        (
            .keyRepeatsInCopies(entity: "order"),
            "the key of order is composed of values and shared keys only, so copies of the sample would repeat its keys: compose it with a key of an entity that is not shared, or mark it shared"
        ),
    ]

    static let relationshipSnapshots: [(MappingProblem, String)] = [
        (
            .toOneNeedsSource("b"),
            "to_one 'b' needs owner: true (the object whose children list holds it), or embedded: PATH (an object), key: PATH (the target's key) or both (the object when present, else the key)"
        ),
        (.listingWithoutOwner, "listing applies to an owner relationship (is the owner's children list complete or a page?)"),
        (
            .manyToManyNeedsSource("b"),
            "many_to_many 'b' needs exactly one of embedded: PATH (an array of objects) or keys: PATH (an array of keys)"
        ),
        (.manyToManyTwice("tags", entity: "post"), "'post' has two many_to_many relationships named 'tags'"),
        (
            .childWithoutOwner(child: "l", parent: "a"),
            "'l' is listed as a child of 'a' but has no to_one with entity: a and owner: true to link it"
        ),
        (.severalOwners(child: "l", parent: "a"), "'l' has several owner relationships to 'a'; keep one"),
    ]

    @Test("each problem reads as its call site wrote it", arguments: snapshots)
    func wording(problem: MappingProblem, text: String) {
        #expect(problem.description == text)
    }

    @Test("each problem survives a child's message: it encodes and decodes as itself", arguments: snapshots.map(\.0))
    func codable(problem: MappingProblem) throws {
        #expect(try JSONDecoder().decode(MappingProblem.self, from: JSONEncoder().encode(problem)) == problem)
    }

    /// The case's name: a new case does not compile here until it is named; named here and in
    /// `everyCaseName`, it fails `everyCase` until it has a snapshot.
    static func name(_ problem: MappingProblem) -> String {
        switch problem {
        case .unreadable: return "unreadable"
        case .emptyFile: return "emptyFile"
        case .invalidYAML: return "invalidYAML"
        case .notYAML: return "notYAML"
        case .yamlKeysTwice: return "yamlKeysTwice"
        case .unexpected: return "unexpected"
        case .notAMapping: return "notAMapping"
        case .keyNotAName: return "keyNotAName"
        case .unknownKey: return "unknownKey"
        case .keyTwice: return "keyTwice"
        case .missingKey: return "missingKey"
        case .notSingleValue: return "notSingleValue"
        case .notAChoice: return "notAChoice"
        case .unknownType: return "unknownType"
        case .pathSyntax: return "pathSyntax"
        case .badPath: return "badPath"
        case .positionInCollectionPath: return "positionInCollectionPath"
        case .singleCollectionKey: return "singleCollectionKey"
        case .collectionsNotAList: return "collectionsNotAList"
        case .collectionTwice: return "collectionTwice"
        case .undeclaredElement: return "undeclaredElement"
        case .elementWithOwner: return "elementWithOwner"
        case .jsonLinesWithCollections: return "jsonLinesWithCollections"
        case .sharedNotAList: return "sharedNotAList"
        case .noEntities: return "noEntities"
        case .reservedEntityName: return "reservedEntityName"
        case .entityTwice: return "entityTwice"
        case .undeclaredEntity: return "undeclaredEntity"
        case .targetDeclaredLater: return "targetDeclaredLater"
        case .noNaturalKey: return "noNaturalKey"
        case .keyColumnUnnamed: return "keyColumnUnnamed"
        case .keyNeedsPathOrCompose: return "keyNeedsPathOrCompose"
        case .fallbackWithCompose: return "fallbackWithCompose"
        case .badCompose: return "badCompose"
        case .positionInKeyReadAlone: return "positionInKeyReadAlone"
        case .reservedColumn: return "reservedColumn"
        case .columnTwice: return "columnTwice"
        case .tooManyMembers: return "tooManyMembers"
        case .keyRepeatsInCopies: return "keyRepeatsInCopies"
        case .toOneNeedsSource: return "toOneNeedsSource"
        case .listingWithoutOwner: return "listingWithoutOwner"
        case .manyToManyNeedsSource: return "manyToManyNeedsSource"
        case .manyToManyTwice: return "manyToManyTwice"
        case .childWithoutOwner: return "childWithoutOwner"
        case .severalOwners: return "severalOwners"
        case .schema: return "schema"
        case .overLimit: return "overLimit"
        }
    }

    /// Every case, as `name` names it.
    static let everyCaseName: Set<String> = [
        "unreadable", "emptyFile", "invalidYAML", "notYAML", "yamlKeysTwice", "unexpected", "notAMapping", "keyNotAName", "unknownKey",
        "keyTwice", "missingKey", "notSingleValue", "notAChoice", "unknownType", "pathSyntax", "badPath", "positionInCollectionPath",
        "singleCollectionKey", "collectionsNotAList", "collectionTwice", "undeclaredElement", "elementWithOwner", "jsonLinesWithCollections",
        "sharedNotAList", "noEntities", "reservedEntityName", "entityTwice", "undeclaredEntity", "targetDeclaredLater", "noNaturalKey",
        "keyColumnUnnamed", "keyNeedsPathOrCompose", "fallbackWithCompose", "badCompose", "positionInKeyReadAlone", "reservedColumn",
        "columnTwice", "tooManyMembers", "keyRepeatsInCopies", "toOneNeedsSource", "listingWithoutOwner", "manyToManyNeedsSource",
        "manyToManyTwice", "childWithoutOwner", "severalOwners", "schema", "overLimit",
    ]

    @Test("every case has a snapshot")
    func everyCase() {
        #expect(Set(Self.snapshots.map { Self.name($0.0) }) == Self.everyCaseName)
    }

    @Test("a located problem reads after its file, line and column")
    func located() {
        let error = MappingError(file: "shop.yml", line: 3, column: 1, problem: .unknownKey("elemnt", in: .entity("order"), allowed: ["key"]))
        #expect(error.description == "shop.yml:3:1: unknown key 'elemnt' in entity 'order'; expected key")
    }
}
