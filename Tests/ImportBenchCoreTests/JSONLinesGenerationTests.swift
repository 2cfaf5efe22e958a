import Foundation
import ImportBenchCore
import ImportBenchPayload
import Testing

/// `bench generate` and `--from` write JSON Lines when the output's name says so: the elements the
/// document form holds, one per line, nothing around them, gzipped for `.gz`.
@Suite("Writing JSON Lines")
struct JSONLinesGenerationTests {
    /// The values of a JSON Lines file (inflated with gunzip first for `.gz`), one per line.
    static func lines(_ path: String) throws -> [Any] {
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        if path.hasSuffix(".gz") {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/gzip")
            process.arguments = ["-dc", path]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
        }
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasSuffix("\n"), "a JSON Lines file ends its last line")
        return try text.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) }
    }

    /// The elements of the document at `path`, at `arrayPath`.
    static func elements(_ path: String, at arrayPath: [String]) throws -> [Any] {
        var value = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        for name in arrayPath { value = try #require((value as? [String: Any])?[name]) }
        return try #require(value as? [Any])
    }

    @Test(
        "a built-in scenario's generator writes its elements one per line, the same as the document's",
        arguments: ["chat", "products", "quakes"], ["jsonl", "ndjson.gz"])
    func builtIn(scenario name: String, suffix: String) throws {
        let arrayPath = ["chat": ["channels"], "products": [], "quakes": ["features"]][name] ?? []
        let directory = try TemporaryDirectory()
        let scenario = try #require(ScenarioRegistry.scenario(named: name))
        try scenario.generate(scale: 0.02, seed: 9, to: directory.path("payload.json"))
        try scenario.generate(scale: 0.02, seed: 9, to: directory.path("payload.\(suffix)"))
        let lines = try Self.lines(directory.path("payload.\(suffix)"))
        let elements = try Self.elements(directory.path("payload.json"), at: arrayPath)
        #expect(lines.count == elements.count && !lines.isEmpty)
        #expect(NSArray(array: lines).isEqual(to: elements))
    }

    /// A pretty-printed sample, its line breaks between tokens and one escaped inside a string.
    static let sample = """
        {"orders": [
          {"id": "o1",
           "note": "two\\nlines"},
          {"id": "o2", "note": "b"}
        ]}
        """
    static let mapping = "name: orders\nelements: orders\nelement: order\nentities:\n  order:\n    key: id\n    attributes: {note: text}\n"

    @Test("--from writes JSON Lines from a pretty-printed sample, plain or gzipped, and copies of a JSON Lines sample")
    func scaledSample() throws {
        let directory = try TemporaryDirectory()
        let mapping = try PayloadMapping(yaml: Self.mapping, file: "orders.yml")
        let sample = directory.path("orders.json")
        try Self.sample.write(toFile: sample, atomically: true, encoding: .utf8)
        try SampleScaler(mapping: mapping, sample: sample).write(scale: 2, to: directory.path("2x.json"))
        try SampleScaler(mapping: mapping, sample: sample).write(scale: 2, to: directory.path("2x.jsonl"))
        let document = try Self.elements(directory.path("2x.json"), at: ["orders"])
        let lines = try Self.lines(directory.path("2x.jsonl"))
        #expect(lines.count == 4)
        #expect(NSArray(array: lines).isEqual(to: document))
        #expect((lines[2] as? [String: Any])?["id"] as? String == "o1~1")
        #expect((lines[0] as? [String: Any])?["note"] as? String == "two\nlines")

        // Copies of the JSON Lines file, gzipped, give the same lines again, twice over.
        try SampleScaler(mapping: mapping, sample: directory.path("2x.jsonl")).write(scale: 1, to: directory.path("again.jsonl.gz"))
        #expect(NSArray(array: try Self.lines(directory.path("again.jsonl.gz"))).isEqual(to: lines))
        let gzipped = directory.path("orders.json.gz")
        try SampleScaler(mapping: mapping, sample: sample).write(scale: 1, to: gzipped)
        try SampleScaler(mapping: mapping, sample: gzipped).write(scale: 2, to: directory.path("from-gz.json"))
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: directory.path("from-gz.json")))
                == Data(contentsOf: URL(fileURLWithPath: directory.path("2x.json"))))

        // A JSON Lines sample has no document to write its copies into.
        let error = #expect(throws: PayloadError.self) {
            try SampleScaler(mapping: mapping, sample: directory.path("2x.jsonl")).write(scale: 2, to: directory.path("back.json"))
        }
        #expect(error?.expected == .scaledName(jsonLines: true))
        #expect(!FileManager.default.fileExists(atPath: directory.path("back.json")))
    }

    @Test(
        "a JSON Lines error names the line and the column of its byte, and the member inside the line, parsed in place or not",
        arguments: ["  ", ""])
    func lineAndColumn(indent: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("products.jsonl")
        let bad = indent + #"{"serialCode": "p2", "price": "cheap"}"#
        try (#"{"serialCode": "p1", "price": 1.5}"# + "\n" + bad + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let reader = try ProductsScenario().openReader(path: path)
        _ = try reader.nextUnit()
        let error = #expect(throws: PayloadError.self) { _ = try reader.nextUnit() }
        let column = try #require(bad.range(of: #""cheap""#)).lowerBound.utf16Offset(in: bad) + 1
        #expect(error?.line == 2)
        #expect(error?.column == column)
        #expect(error?.path == "price")
        #expect(error.map { "\($0)" }?.contains("products.jsonl line 2, column \(column) (price): expected") == true)
    }

    @Test("a mapping that says format: json-lines reads any file name as JSON Lines, and --from copies it so")
    func declaredByMapping() throws {
        let directory = try TemporaryDirectory()
        let yaml = "name: orders\nformat: json-lines\nelement: order\nentities:\n  order:\n    key: id\n    attributes: {note: text}\n"
        let mappingPath = directory.path("orders.yml")
        try yaml.write(toFile: mappingPath, atomically: true, encoding: .utf8)
        let payload = directory.path("orders.log")
        try "{\"id\": \"o1\", \"note\": \"a\"}\n\n{\"id\": \"o2\", \"note\": \"b\"}\n".write(toFile: payload, atomically: true, encoding: .utf8)
        let scenario = try MappedScenario.load(path: mappingPath)
        let reader = try scenario.openReader(path: payload)
        var keys: [String] = []
        while let unit = try reader.nextUnit() { keys += unit.occurrences.map { "\($0.key)" } }
        #expect(keys == ["'o1'", "'o2'"])
        try MappedScenario.load(path: mappingPath, sample: payload).generate(scale: 2, seed: 1, to: directory.path("2x.log"))
        #expect(try Self.lines(directory.path("2x.log")).count == 4)

        for (bad, problem) in [
            ("format: json-lines\nelements: orders\n", MappingProblem.jsonLinesWithCollections), ("format: csv\n", .notAChoice("csv", of: .format)),
        ] {
            let text = yaml.replacingOccurrences(of: "format: json-lines\n", with: bad)
            let error = #expect(throws: MappingError.self) { _ = try PayloadMapping(yaml: text, file: "orders.yml") }
            #expect(error?.problem == problem, "\(String(describing: error))")
        }
    }

    @Test("--from a JSON Lines sample makes payloads read as lines under any name, a run's extensionless one too")
    func linesSampleAnyName() throws {
        let directory = try TemporaryDirectory()
        let yaml = "name: orders\nelement: order\nentities:\n  order:\n    key: id\n    attributes: {note: text}\n"
        let mappingPath = directory.path("orders.yml")
        try yaml.write(toFile: mappingPath, atomically: true, encoding: .utf8)
        let sample = directory.path("orders.jsonl")
        try "{\"id\": \"o1\", \"note\": \"a\"}\n{\"id\": \"o2\", \"note\": \"b\"}\n".write(toFile: sample, atomically: true, encoding: .utf8)
        let scenario = try MappedScenario.load(path: mappingPath, sample: sample)
        let generated = directory.path("orders-3x-seed1")
        try scenario.generate(scale: 3, seed: 1, to: generated)
        let reader = try scenario.openReader(path: generated)
        var keys: Set<String> = []
        while let unit = try reader.nextUnit() { keys.formUnion(unit.occurrences.map { "\($0.key)" }) }
        #expect(keys.count == 6)
    }

    @Test("every JSON Lines line is held to the element limit, however the reads split the file", arguments: [64, 1 << 20])
    func lineLimit(chunkSize: Int) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("long.jsonl")
        try ("{\"id\": \"a\"}\n{\"id\": \"" + String(repeating: "x", count: 500) + "\"}\n").write(toFile: path, atomically: true, encoding: .utf8)
        var limits = PayloadLimits.default
        limits.longestJSONElementBytes = 100
        let lines = try JSONLinesElementReader(path: path, chunkSize: chunkSize, limits: limits)
        _ = try lines.next()
        let error = #expect(throws: PayloadError.self) { _ = try lines.next() }
        #expect(error?.line == 2 && error?.column == 1)
        #expect(error?.expected == .limit(.jsonLine, 100))
    }
}
