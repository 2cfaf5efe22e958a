import ArgumentParser
import Foundation
import ImportBenchCore
import ImportBenchStrategies
import Synchronization

/// `bench`: which import strategy, at which batch size, and what it costs at 2x, 10x, 100x.
package struct BenchCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure strategies for importing a big JSON payload into SQLite.",
        discussion: """
            Runs the same payload through each import strategy against real SQLite, checks that every \
            strategy wrote the same data, and reports statement and fetch counts, timings and memory \
            as a table and as CSV.

            Start with: bench run --strategy prewarm --scale 2x

            \(ExitStatus.help(ExitStatus.allCases))
            """,
        version: BenchVersion.current,
        subcommands: [
            RunCommand.self, CompareCommand.self, GateCommand.self, ReportCommand.self, ExportCommand.self, GenerateCommand.self, SeedDBCommand.self,
            DecodeCommand.self,
            ListCommand.self, SchemaCommand.self,
            MeasureOneCommand.self,
        ]
    )

    package init() {}

    /// The strategies this executable knows: bench's own, and those `main(strategies:)` added. Set
    /// once before the command line is parsed; a measuring child process is this same executable,
    /// so it builds the same catalog and finds a plug-in's strategy by name.
    static var catalog: StrategyCatalog { catalogStore.withLock { $0 } }
    private static let catalogStore = Mutex(StrategyCatalog.builtIn)

    /// Runs `bench` with `strategies` beside the built-in ones: the whole `main.swift` of a plug-in
    /// package. Every subcommand knows them (`run`, `list`, `compare`, `report`, `export`), and
    /// `--strategy all` runs them after bench's own. A name taken already is a usage error (exit 64).
    package static func main(strategies: [any ImportStrategy.Type]) -> Never {
        do {
            let catalog = try StrategyCatalog.builtIn.adding(strategies)
            catalogStore.withLock { $0 = catalog }
        } catch {
            FileHandle.standardError.write(Data("bench: \(error)\n".utf8))
            Self.exit(withError: ExitCode(ExitStatus.usage.rawValue))
        }
        runFromCommandLine()
    }

    /// Parses and validates the command line (ArgumentParser), then checks it against the lower
    /// layers (`CheckedCommand`): what they refuse is a usage error that keeps their error whole.
    package static func parseAndCheck(_ arguments: [String]? = nil) throws -> any ParsableCommand {
        let command = try parseAsRoot(arguments)
        guard let checked = command as? any CheckedCommand else { return command }
        do {
            try checked.check()
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure.usage(error)
        }
        return command
    }

    /// Parses and runs; a usage error is one line on stderr naming what is allowed, never a stack of usage text.
    package static func runFromCommandLine(_ arguments: [String]? = nil) -> Never {
        do {
            var command = try parseAndCheck(arguments)
            try command.run()
            Self.exit()
        } catch let exit as ExitCode {
            Self.exit(withError: exit)
        } catch let failure as CommandFailure {
            FileHandle.standardError.write(Data("bench: \(failure.message)\n".utf8))
            Self.exit(withError: ExitCode(failure.exitCode))
        } catch {
            if exitCode(for: error) == .success { Self.exit(withError: error) }
            let message = Self.message(for: error).split(separator: "\n").joined(separator: " ")
            FileHandle.standardError.write(Data("bench: \(message) (see --help)\n".utf8))
            Self.exit(withError: ExitCode(exitCode(for: error).rawValue))
        }
    }
}
