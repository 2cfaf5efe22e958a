import Foundation
import ImportBenchCore
import ImportBenchStore
import Testing

/// `bench schema`: what an importer of the user's must write, and the SQL bench creates the store with.
@Suite("bench schema")
struct SchemaCommandTests {
    @Test("names every table, key and relationship, and states the rules", arguments: ["chat", "products", "quakes", "transit"])
    func summary(scenario: String) throws {
        let (status, output) = try IsolatedRunTests.bench(["schema", "--scenario", scenario])
        #expect(status == 0, "\(output)")
        let schema = try ScenarioSource.builtIn(scenario).resolve().schema
        for entity in schema.entities {
            #expect(output.contains("\(entity.name)  (table \"\(entity.name)\")"))
            #expect(output.contains("  \(entity.key.name) \(entity.key.type.rawValue): the natural key"))
            for relationship in entity.manyToMany { #expect(output.contains(entity.joinTable(relationship))) }
            for relationship in entity.toOne { #expect(output.contains("\(relationship.column) -> ")) }
        }
        #expect(output.contains("The last occurrence of an object in the payload wins"))
    }

    @Test("--sql is the store bench creates: run in an empty database, it makes the same tables and indexes")
    func sqlIsTheStore() throws {
        let directory = try RunCommandEndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let mapping = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scenarios/chat/mapping.yml").path
        let (status, output) = try IsolatedRunTests.bench(["schema", "--mapping", mapping, "--sql"])
        #expect(status == 0, "\(output)")
        let store = try StoreConnection(path: directory.appendingPathComponent("store.sqlite").path)
        try store.execute(output)
        let made = try store.prepare("SELECT type, name FROM sqlite_master ORDER BY name")
        var objects: [String] = []
        while try made.step() { objects.append("\(made.value(at: 0)) \(made.value(at: 1))") }
        let expected = try StoreConnection(path: directory.appendingPathComponent("expected.sqlite").path)
        for statement in try ScenarioSource.builtIn("chat").resolve().schema.ddl { try expected.execute(statement) }
        let reference = try expected.prepare("SELECT type, name FROM sqlite_master ORDER BY name")
        var wanted: [String] = []
        while try reference.step() { wanted.append("\(reference.value(at: 0)) \(reference.value(at: 1))") }
        #expect(objects == wanted && objects.count > 7)
    }
}
