import ArgumentParser
import ImportBenchCore
import ImportBenchSchema

/// `bench schema`: what an importer of the user's (`--command`, a plug-in) must write, and the
/// rules its store is verified against.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract:
            "Print the store an importer must fill: tables, natural keys, columns and relationships, the rules the verifier applies, and the SQL bench creates the store with.",
        discussion: """
            bench creates these tables before a --command starts (with the run's journal and synchronous settings, \
            its own bookkeeping table importbench_import, and, for a refresh, the preload's rows); the command fills \
            them from the payload. The SQL is bench's for these tables and indexes, in order.
            """)

    @Option(help: ArgumentHelp("A built-in payload family: \(ScenarioRegistry.names.joined(separator: ", ")).", valueName: "name"))
    var scenario: ScenarioSource = .builtIn("chat")

    @Option(help: ArgumentHelp("A mapping file (YAML) describing your payload's shape, instead of --scenario.", valueName: "file"))
    var mapping: String?

    @Flag(help: "Print the SQL alone.")
    var sql = false

    func run() throws {
        let reference = mapping.map { ScenarioSource.mapping(given: $0, sample: nil) } ?? scenario
        let schema: Schema
        do {
            schema = try reference.resolve().schema
        } catch {
            throw CommandFailure.usage(error)
        }
        let statements = schema.ddl.map { $0 + ";" }.joined(separator: "\n")
        guard !sql else {
            print(statements)
            return
        }
        print(schema.storeSummary)
        print(Schema.storeRules)
        print("\nSQL, as bench runs it before the importer starts:\n")
        print(statements)
    }
}
