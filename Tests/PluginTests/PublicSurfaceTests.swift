import Foundation
import Testing

/// The plug-in library's promise: what a package outside this one can name, read from the
/// compiler's symbol graph of the modules a plug-in sees (`swift-symbolgraph-extract` over the
/// modules built beside these tests), each symbol documented, protocol requirements included.
@Suite("The public surface")
struct PublicSurfaceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let modules = ["ImportBench", "ImportBenchCore", "ImportBenchPayload", "ImportBenchSchema", "ImportBenchStore", "ImportBenchStrategies"]
    static let listing = root.appendingPathComponent("Tests/PluginTests/public-api.txt")
    static let privateModules = ["ImportBenchCLI", "ImportBenchReport"]

    @Test("documents every public symbol, protocol requirements included")
    func everythingDocumented() throws {
        let undocumented = try SymbolGraphReader().symbols(of: Self.modules).filter { !$0.documented }
        #expect(undocumented.isEmpty, "\(undocumented.map(\.line).joined(separator: "\n"))")
    }

    @Test("is the reviewed one: a change to it updates Tests/PluginTests/public-api.txt in the same commit")
    func matchesTheListing() throws {
        let reader = try SymbolGraphReader()
        let surface = try reader.listing(of: Self.modules)
        let listed = try String(contentsOf: Self.listing, encoding: .utf8).split(separator: "\n").map(String.init)
        guard surface != listed else { return }
        // The new listing lies in the build's scratch directory, ready to be reviewed and copied.
        let written = reader.scratch.appendingPathComponent("public-api.txt")
        try (surface.joined(separator: "\n") + "\n").write(to: written, atomically: true, encoding: .utf8)
        Issue.record(
            """
            added: \(Set(surface).subtracting(listed).sorted())
            removed: \(Set(listed).subtracting(surface).sorted())
            the listing of what the compiler sees: \(written.path) (copy it to Tests/PluginTests/public-api.txt once reviewed)
            """)
    }

    @Test("leaves the reporters and the command line to the package")
    func privateModulesHaveNone() throws {
        #expect(try SymbolGraphReader().symbols(of: Self.privateModules).map(\.line) == [])
    }

    @Test("the listing is no longer than the 168 lines the source scan listed before it (issue 48)")
    func listingStaysSmall() throws {
        let listed = try String(contentsOf: Self.listing, encoding: .utf8).split(separator: "\n")
        #expect(listed.count <= 168)
    }

    @Test(
        "a listed line names its module and owning type, and marks a protocol's requirements",
        arguments: [
            "ImportBenchStrategies.ImportStrategy: func write(_ batch: RecordBatch, pass: Int) throws  [required]",
            "ImportBenchStrategies.ImportStrategy: static var passes: Int { get }  [required, defaulted]",
            "ImportBenchPayload: struct BatchValues: RandomAccessCollection",
            "ImportBenchStore.StoreStatement, extended in ImportBenchPayload: func bind(_ value: RecordValue, at index: Int32)",
        ])
    func linesNameOwners(line: String) throws {
        let listed = try String(contentsOf: Self.listing, encoding: .utf8).split(separator: "\n").map(String.init)
        let isListed = listed.contains(line)
        #expect(isListed, "not listed: \(line)")
    }
}
