import ArgumentParser
import ImportBenchCore

/// `bench list`: the scenarios and strategies, a line each.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the built-in scenarios, and the strategies this bench knows (a plug-in's among them).")

    func run() throws {
        print("scenarios:")
        for scenario in ScenarioRegistry.all { print("  \(pad(scenario.name))\(scenario.summary)") }
        print("strategies:")
        for strategy in BenchCommand.catalog.all {
            print("  \(pad(strategy.name))\(strategy.summary)")
        }
        print("alternatives to importing (run only by name, never by --strategy all):")
        for strategy in BenchCommand.catalog.alternatives {
            print("  \(pad(strategy.name))\(strategy.summary)")
        }
        print("pitfalls (run only by name, never by --strategy all):")
        for strategy in BenchCommand.catalog.pitfalls {
            print("  \(pad(strategy.name))\(strategy.summary)")
        }
    }

    /// Names in one column, as wide as the longest scenario or strategy name and two spaces.
    private func pad(_ name: String) -> String {
        let width = (ScenarioRegistry.all.map(\.name) + BenchCommand.catalog.known.map { $0.name }).map(\.count).max() ?? 0
        return name + String(repeating: " ", count: width + 2 - name.count)
    }
}
