import Foundation
import ImportBenchStore
import Testing

@testable import ImportBenchCore
@testable import ImportBenchPayload

/// A mapping file is refused, located, past its limits (`MappingLimit`): segments per path,
/// entities, and the file's size; what is within them still loads.
@Suite("Mapping limits")
struct MappingLimitsTests {
    /// A mapping of one entity whose attribute `v` is read at `path`.
    static func mapping(path: String) -> String {
        """
        name: deep
        element: item
        entities:
          item:
            key: id
            attributes:
              v: {type: text, path: \(path)}
        """
    }

    /// A mapping of `count` entities, each with a key and one attribute.
    static func mapping(entities count: Int) -> String {
        (["name: many", "element: e0", "entities:"] + (0..<count).map { "  e\($0): {key: id, attributes: {v: text}}" }).joined(separator: "\n")
    }

    static func members(_ count: Int) -> String { Array(repeating: "a", count: count).joined(separator: ".") }

    @Test("a path of 64 segments loads; one of 65, or 20,000, is refused where it is written, with the limit and the count")
    func pathSegments() throws {
        let limit = MappingLimit.pathSegments.limit
        #expect(limit == 64)
        let deepest = try PayloadMapping(yaml: Self.mapping(path: Self.members(limit)), file: "deep.yml")
        #expect(deepest.entities[0].attributes[0].segments.count == limit)
        for count in [limit + 1, 20_000] {
            let error = #expect(throws: MappingError.self) { try PayloadMapping(yaml: Self.mapping(path: Self.members(count)), file: "deep.yml") }
            #expect(error?.problem == .overLimit(.pathSegments, limit: limit, found: count))
            #expect(error?.file == "deep.yml")
            #expect(error?.line == 7)
            #expect(error?.column == 29)
            #expect(
                error?.description.hasPrefix("deep.yml:7:29: a path of \(count == 20_000 ? "20,000" : "65") segments") == true,
                "\(error?.description ?? "")")
            #expect(error?.description.hasSuffix("a path has at most 64") == true, "\(error?.description ?? "")")
        }
    }

    @Test("positions count as segments, and a path inside a composed key is held to the same limit")
    func positionsAndComposedKeys() throws {
        let positions = "a" + String(repeating: "[0]", count: 64)
        let error = #expect(throws: MappingError.self) { try PayloadMapping(yaml: Self.mapping(path: "\"\(positions)\""), file: "p.yml") }
        #expect(error?.problem == .overLimit(.pathSegments, limit: 64, found: 65))
        let composed = """
            name: composed
            element: item
            entities:
              item:
                key: {compose: "x{\(Self.members(100))}"}
            """
        let inCompose = #expect(throws: MappingError.self) { try PayloadMapping(yaml: composed, file: "c.yml") }
        #expect(inCompose?.problem == .overLimit(.pathSegments, limit: 64, found: 100))
        #expect(inCompose?.line == 5)
    }

    @Test("1,000 entities load; 1,001 or 10,000 are refused at entities, with the limit and the count")
    func entities() throws {
        let limit = MappingLimit.entities.limit
        #expect(limit == 1_000)
        let most = try PayloadMapping(yaml: Self.mapping(entities: limit), file: "many.yml")
        #expect(most.schema.entities.count == limit)
        for count in [limit + 1, 10_000] {
            let error = #expect(throws: MappingError.self) { try PayloadMapping(yaml: Self.mapping(entities: count), file: "many.yml") }
            #expect(error?.problem == .overLimit(.entities, limit: limit, found: count))
            #expect(error?.line == 4)
            #expect(error?.column == 3)
            #expect(error?.description.contains("entities; a mapping declares at most 1,000") == true, "\(error?.description ?? "")")
        }
    }

    /// One entity with a key and `count` attributes, read from objects of 50 members each.
    static func mapping(attributes count: Int) -> String {
        (["name: wide", "element: item", "entities:", "  item:", "    key: id", "    attributes:"]
            + (0..<count).map { "      c\($0): {type: text, path: g\($0 / 50).m\($0)}" }).joined(separator: "\n")
    }

    @Test("an entity of 1,000 columns loads and SQLite creates its table; one more is refused where it is declared, before SQLite sees it")
    func columns() throws {
        let limit = MappingLimit.columns.limit
        #expect(limit == 1_000)
        let widest = try PayloadMapping(yaml: Self.mapping(attributes: limit - 1), file: "wide.yml")
        #expect(widest.schema.entities[0].attributes.count == limit - 1)
        let directory = try TemporaryDirectory()
        let store = try StoreConnection(path: directory.path("wide.sqlite"))
        for statement in widest.schema.ddl { try store.execute(statement) }
        let error = #expect(throws: MappingError.self) { try PayloadMapping(yaml: Self.mapping(attributes: limit), file: "wide.yml") }
        #expect(error?.problem == .overLimit(.columns, limit: limit, found: nil))
        // The key is line 5, the attributes start on line 7: c999 is on line 1006.
        #expect(error?.line == 1006 && error?.column == 7, "\(error?.description ?? "")")
        #expect(error?.description.hasSuffix("an entity declares at most 1,000") == true, "\(error?.description ?? "")")
    }

    @Test("a mapping file over 1 MiB is refused by its size; a device is read no further than the limit")
    func fileBytes() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let limit = MappingLimit.fileBytes.limit
        #expect(limit == 1 << 20)
        // Within the limit, padded with a comment: it loads.
        let valid = Self.mapping(entities: 1) + "\n"
        let padded = directory.path("padded.yml")
        try Data((valid + "#" + String(repeating: "x", count: limit - valid.utf8.count - 2) + "\n").utf8).write(to: URL(fileURLWithPath: padded))
        #expect(try FileManager.default.attributesOfItem(atPath: padded)[.size] as? Int == limit)
        #expect(try PayloadMapping.load(path: padded).schema.entities.count == 1)
        // One byte more: refused, naming the size.
        let large = directory.path("large.yml")
        try Data((valid + "#" + String(repeating: "x", count: limit - valid.utf8.count - 1) + "\n").utf8).write(to: URL(fileURLWithPath: large))
        let error = #expect(throws: MappingError.self) { try PayloadMapping.load(path: large) }
        #expect(error?.problem == .overLimit(.fileBytes, limit: limit, found: limit + 1))
        #expect(error?.file == large)
        #expect(error?.line == nil)
        #expect(error?.description == "\(large): the mapping file holds 1,048,577 bytes; a mapping file holds at most 1,048,576")
        // A sparse file of 1 GB is refused as quickly, without reading it.
        let sparse = directory.path("sparse.yml")
        #expect(FileManager.default.createFile(atPath: sparse, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: sparse))
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        #expect(throws: MappingError.overLimit(.fileBytes, found: 1 << 30, file: sparse)) { try PayloadMapping.load(path: sparse) }
        // A directory is no mapping, and says so.
        let folder = #expect(throws: MappingError.self) { try PayloadMapping.load(path: directory.url.path) }
        #expect(folder?.problem == .unreadable(.directory))
        // A device never ends: read to one byte past the limit, then refused.
        let zero = #expect(throws: MappingError.self) { try PayloadMapping.load(path: "/dev/zero") }
        #expect(zero?.problem == .overLimit(.fileBytes, limit: limit, found: nil))
        #expect(zero?.description == "/dev/zero: the mapping file holds more than 1,048,576 bytes; a mapping file holds at most 1,048,576")
    }

    @Test("an alias of a large block used over and over is refused once its uses pass 250,000 values, where they are")
    func aliases() throws {
        #expect(MappingLimit.values.limit == 250_000)
        // 500 attributes (1,000 values) declared once, then used by 300 entities: 300,000 values in 20 KB.
        let attributes = (0..<500).map { "a\($0): text" }.joined(separator: ", ")
        let users = (1..<300).map { "  e\($0): {key: id, attributes: *columns}" }
        let yaml = (["name: laughs", "element: e0", "entities:", "  e0: {key: id, attributes: &columns {\(attributes)}}"] + users)
            .joined(separator: "\n")
        #expect(yaml.utf8.count < 30_000)
        let error = #expect(throws: MappingError.self) { try PayloadMapping(yaml: yaml, file: "laughs.yml") }
        #expect(error?.problem == .overLimit(.values, limit: 250_000, found: nil))
        // Among the entities that use the alias, past the anchor's line.
        #expect((error?.line ?? 0) > 200, "\(error?.description ?? "")")
        #expect(error?.description.contains("more than 250,000 values") == true, "\(error?.description ?? "")")
        // The same alias used by a few entities is fine.
        let few = (["name: few", "element: e0", "entities:", "  e0: {key: id, attributes: &columns {a: text, b: integer}}"] + users.prefix(5))
            .joined(separator: "\n")
        #expect(try PayloadMapping(yaml: few, file: "few.yml").schema.entities.count == 6)
    }

    @Test("a refusal crosses processes as values: it encodes and decodes to itself")
    func codable() throws {
        let error = MappingError.overLimit(.entities, found: 10_000, file: "many.yml", line: 3, column: 3)
        let decoded = try JSONDecoder().decode(MappingError.self, from: JSONEncoder().encode(error))
        #expect(decoded == error)
        #expect(decoded.description == "many.yml:3:3: 10,000 entities; a mapping declares at most 1,000")
    }

    @Test("the built-in mappings are far within every limit")
    func builtInsWithin() throws {
        for name in PayloadMappingTests.mapped + ["examples/orders", "examples/statuses", "examples/catalog"] {
            let path = BuiltInMappings.path(name)
            let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
            #expect(size * 100 < MappingLimit.fileBytes.limit, "\(name)")
            let mapping = try PayloadMapping.load(path: path)
            #expect(mapping.schema.entities.count * 100 < MappingLimit.entities.limit, "\(name)")
            for entity in mapping.entities {
                for path in entity.attributes { #expect(path.segments.count * 10 < MappingLimit.pathSegments.limit, "\(name)") }
            }
        }
    }
}
