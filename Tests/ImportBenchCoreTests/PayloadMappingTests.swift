import Foundation
import ImportBenchCore
import ImportBenchPayload
import ImportBenchSchema
import ImportBenchStrategies
import Testing

@Suite("Mapping files")
struct PayloadMappingTests {
    static let mapped = ["chat", "quakes", "products"]

    @Test("each built-in mapping declares exactly the built-in scenario's schema", arguments: mapped)
    func sameSchema(name: String) throws {
        let builtIn = try #require(ScenarioRegistry.scenario(named: name))
        let mapped = try MappedScenario.load(path: BuiltInMappings.path(name))
        #expect(mapped.schema.entities == builtIn.schema.entities)
        #expect(mapped.name == name)
    }

    @Test(
        "a payload read through its mapping gives the built-in reader's occurrences and, with every strategy, its digest",
        arguments: mapped)
    func sameDigest(name: String) throws {
        let builtIn = try #require(ScenarioRegistry.scenario(named: name))
        let mappingPath = BuiltInMappings.path(name)
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let payload = directory.path("payload.json")
        try builtIn.generate(scale: 0.05, seed: 4, to: payload)

        let reference = try Benchmark(
            configuration: BenchmarkConfiguration(
                spec: RunSpec(scenario: builtIn.source, payload: .file(payload)), strategies: [CeilingStrategy.self])
        ).run()
        let outcome = try Benchmark(
            configuration: BenchmarkConfiguration(
                spec: RunSpec(scenario: .mapping(mappingPath, sample: nil), payload: .file(payload)), strategies: StrategyCatalog.builtIn.all)
        ).run()
        let digest = try #require(reference.results.first?.digest)
        #expect(outcome.results.count == StrategyCatalog.builtIn.all.count)
        for result in outcome.results {
            #expect(result.valid, "\(result.strategy): \(result.differences)")
            #expect(result.digest == digest, "\(result.strategy)")
        }
        #expect(outcome.expected.occurrences == reference.expected.occurrences)
        #expect(outcome.expected.uniqueObjects == reference.expected.uniqueObjects)
    }

    @Test("a path is members and positions; a malformed one says why")
    func paths() throws {
        #expect(try JSONPath.parse("geometry.coordinates[2]").get().segments == [.member("geometry"), .member("coordinates"), .position(2)])
        #expect(try JSONPath.parse("a[0][1].b").get().segments == [.member("a"), .position(0), .position(1), .member("b")])
        #expect(try JSONPath.parse(".").get().segments.isEmpty)
        let bad: [(String, MappingProblem.PathSyntax)] = [
            ("a..b", .emptyMember), (".a", .emptyMember), ("a.", .endsWithDot), ("a[0].", .endsWithDot), ("a[x]", .positionExpected),
            ("a[-1]", .positionExpected), ("a]", .unopenedBracket), ("a[0]b", .separatorExpected),
        ]
        for (text, syntax) in bad {
            let error = #expect(throws: MappingError.self, "\(text)") { try JSONPath.parse(text).get() }
            #expect(error == MappingError(file: nil, problem: .pathSyntax(syntax, path: text)), "\(text)")
        }
    }

    /// A small valid mapping; each bad case below changes one thing in it.
    static let valid = """
        name: shop
        elements: orders
        element: order
        entities:
          customer:
            key: email
            attributes: {name: text}
          order:
            key: id
            attributes:
              total: {type: real, path: amount.total}
            to_one:
              customer: {entity: customer, embedded: customer}
            children:
              lines: line
          line:
            key: {compose: "{order}/{@index}"}
            attributes: {sku: text, quantity: integer}
            to_one:
              order: {entity: order, owner: true}
        """

    @Test("a valid mapping reads as its schema")
    func validMapping() throws {
        let mapping = try PayloadMapping(yaml: Self.valid, file: "shop.yml")
        #expect(mapping.schema.entities.map(\.name) == ["customer", "order", "line"])
        #expect(mapping.schema.entities[2].key == Attribute("key", .text))
        #expect(mapping.schema.entities[1].toOne == [ToOneRelationship("customer", to: "customer")])
        #expect(mapping.entities[1].children.map { "\($0.path) \($0.entity) \($0.ownerRelationship)" } == ["lines 2 0"])
        #expect(mapping.entities[2].key == .composed([.relationship(0), .literal("/"), .position]))
        #expect(mapping.elements == JSONPath([.member("orders")]))
    }

    /// (what to replace in `valid`, with what, the line and column expected, the problem)
    static let badCases: [(String, String, Int?, Int?, MappingProblem)] = [
        ("entities:", "entities: [", 6, nil, .invalidYAML("did not find expected ',' or ']'")),
        (
            "element: order", "elemnt: order", 3, 1,
            .unknownKey(
                "elemnt", in: .topLevel,
                allowed: ["name", "summary", "format", "elements", "element", "header_row", "collections", "entities", "shared", "screen_query"])
        ),
        ("elements: orders", "elements: orders[0]", 2, 11, .positionInCollectionPath(.named("elements"))),
        ("    key: id\n", "    key: {compose: \"o{@index}\"}\n", 8, 3, .positionInKeyReadAlone(entity: "order")),
        ("element: order", "element: invoice", 3, 10, .undeclaredElement("invoice", collection: nil, declared: ["customer", "order", "line"])),
        ("    key: email\n", "", 5, 3, .noNaturalKey(entity: "customer")),
        ("{name: text}", "{name: txt}", 7, 24, .unknownType("txt")),
        (
            "{entity: customer, embedded: customer}", "{entity: client, embedded: customer}", 13, 7,
            .undeclaredEntity("client", namedBy: .relationship(entity: "order", relationship: "customer"))
        ),
        ("{entity: customer, embedded: customer}", "{entity: customer, embedded: customer, owner: true}", 13, 17, .toOneNeedsSource("customer")),
        ("{entity: order, owner: true}", "{entity: order, key: order_id}", 15, 7, .childWithoutOwner(child: "line", parent: "order")),
        ("{compose: \"{order}/{@index}\"}", "{compose: \"{order}/{@index\"}", 17, 20, .badCompose(.unclosedBrace, template: "{order}/{@index")),
        ("{compose: \"{order}/{@index}\"}", "{compose: \"fixed\"}", 17, 20, .badCompose(.noPart, template: "fixed")),
        ("path: amount.total", "path: amount..total", 11, 33, .badPath(.named("path"), .emptyMember, path: "amount..total")),
        ("{sku: text, quantity: integer}", "{sku: text, sku: integer}", 18, 18, .yamlKeysTwice(["sku"])),
        ("{name: text}", "{name: text, pk: integer}", 7, 30, .reservedColumn("pk", entity: "customer")),
        (
            "  customer:\n    key: email", "  customer:\n    key: email\n    to_one:\n      latest: {entity: order, key: last_order}", 8, 7,
            .targetDeclaredLater(entity: "customer", relationship: "latest", target: "order")
        ),
        ("    key: id\n", "    key: {compose: \"{customer}-o\", fallback: \"{ref}\"}\n", 9, nil, .fallbackWithCompose(entity: "order")),
        ("    key: id\n", "    key: {path: id, fallback: \"{ref\"}\n", 9, nil, .badCompose(.unclosedBrace, template: "{ref")),
        (
            "      order: {entity: order, owner: true}", "      order: {entity: order, owner: true}\n  Order_Customer_PK:\n    key: id", 21, 3,
            .schema(.nameTaken(name: "Order_Customer_PK", entity: "Order_Customer_PK", relationship: nil, taken: "order.customer"))
        ),
    ]

    @Test("a bad mapping is refused with its file, line and column and what is wrong", arguments: 0..<badCases.count)
    func badMapping(index: Int) throws {
        let (target, replacement, line, column, problem) = Self.badCases[index]
        #expect(Self.valid.contains(target), "case \(index) changes nothing")
        let yaml = Self.valid.replacingOccurrences(of: target, with: replacement)
        let error = #expect(throws: MappingError.self) { try PayloadMapping(yaml: yaml, file: "shop.yml") }
        #expect(error?.file == "shop.yml")
        #expect(error?.line == line, "\(error?.description ?? "")")
        if let column { #expect(error?.column == column, "\(error?.description ?? "")") }
        #expect(error?.problem == problem, "\(error?.description ?? "")")
        #expect(error?.description.hasPrefix("shop.yml:\(line ?? 0):") == true)
    }

    @Test("a schema whose tables or indexes would share a name in SQLite is refused, naming both owners")
    func storeNamesClash() throws {
        let tag = Entity("tag", key: Attribute("name", .text), attributes: [])
        let post = Entity("post", key: Attribute("id", .text), attributes: [], manyToMany: [ManyToManyRelationship("tags", to: "tag")])
        let joinTable = Entity("post_tags", key: Attribute("id", .text), attributes: [])
        #expect(throws: SchemaProblem.nameTaken(name: "post_tags", entity: "post_tags", relationship: nil, taken: "post.tags")) {
            try Schema(name: "blog", entities: [tag, post, joinTable])
        }
        let sameButCase = Entity("TAG", key: Attribute("name", .text), attributes: [])
        #expect(throws: SchemaProblem.nameTaken(name: "TAG", entity: "TAG", relationship: nil, taken: "entity 'tag'")) {
            try Schema(name: "blog", entities: [tag, sameButCase])
        }
    }

    @Test("a payload that does not fit its mapping fails at the element, naming the path; skip leaves that element out")
    func payloadErrors() throws {
        let directory = try TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let scenario = MappedScenario(mapping: try PayloadMapping(yaml: Self.valid, file: "shop.yml"), file: "shop.yml")
        let payload = directory.path("orders.json")
        try Data(
            """
            {"orders": [
              {"id": "o1", "amount": {"total": 9.5}, "customer": {"email": "a@x", "name": "Ann"}, "lines": [{"sku": "s1", "quantity": 2}]},
              {"amount": {"total": 3}, "customer": {"email": "b@x"}},
              {"id": 3, "amount": "free", "customer": {"email": "b@x"}},
              {"id": "o4", "customer": {"email": "b@x", "name": "Bo"}, "lines": [{"sku": "s2"}, {"sku": "s3", "quantity": 1}]}
            ]}
            """.utf8
        ).write(to: URL(fileURLWithPath: payload))

        let failing = try scenario.openReader(path: payload)
        _ = try failing.nextUnit()
        let missing = #expect(throws: PayloadError.self) { try failing.nextUnit() }
        #expect(missing?.path == "orders[1].id")
        #expect(missing?.expected == .valueForEntityKey("order", .whole))

        let skipping = try scenario.openReader(path: payload, onError: .skip)
        var units: [RecordUnit] = []
        while let unit = try skipping.nextUnit() { units.append(unit) }
        #expect(units.count == 2)
        #expect(skipping.skippedRecords == ["malformed order": 2])
        #expect(skipping.skippedErrors.map(\.path) == ["orders[1].id", "orders[2].amount"])
        // Dependencies first, children after their owner, and the position in the key.
        let last = try #require(units.last)
        #expect(last.occurrences.map(\.entity) == [0, 1, 2, 2])
        #expect(last.occurrences.map(\.key) == [.text("b@x"), .text("o4"), .text("o4/0"), .text("o4/1")])
        #expect(last.occurrences[1].attributes == [.null])
        #expect(last.occurrences[2].attributes == [.text("s2"), .null])
        #expect(last.occurrences[2].toOne.first??.key == .text("o4"))
    }
}
