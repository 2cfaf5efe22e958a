import Testing

@testable import ImportBenchCore

@Suite("Where a run counts by default")
struct CountingLevelTests {
    /// A method bench does not know by name, as a plug-in's strategy or a user's command is.
    static let foreign = ImportMethod(name: "my-importer", summary: "a user's", role: .user, isOwnProcess: true) { _, _ in
        ImportMeasurement()
    }

    @Test("bench's own methods count on its connection", arguments: StrategyCatalog.builtIn.known.map(\.name))
    func ownMethods(name: String) throws {
        let method = try #require(StrategyCatalog.builtIn.strategy(named: name))
        #expect(CountingLevel.needed(by: [method]) == .connection)
    }

    @Test("a run of every method of bench's own counts on its connection")
    func allOwnMethods() {
        #expect(CountingLevel.needed(by: StrategyCatalog.builtIn.known) == .connection)
    }

    @Test("one method that is not bench's moves every method of the run to the SQLite level")
    func foreignMethod() {
        #expect(CountingLevel.needed(by: StrategyCatalog.builtIn.all + [Self.foreign]) == .sqlite)
        #expect(CountingLevel.needed(by: [Self.foreign]) == .sqlite)
    }
}
