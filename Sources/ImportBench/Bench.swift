import ImportBenchCLI
// The library a plug-in imports: the strategy protocol and what a strategy reads and writes
// (batches of records, the counted connection and its statements, the schema, the refresh
// helpers), and the entry point that turns the plug-in's executable into a whole `bench`.
@_exported import ImportBenchPayload
@_exported import ImportBenchSchema
@_exported import ImportBenchStore
@_exported import ImportBenchStrategies

/// `bench` as a library.
public enum Bench {
    /// Runs bench's command line with `strategies` beside the built-in ones: the whole
    /// `main.swift` of a plug-in's executable. Every subcommand knows them; `--strategy all` runs
    /// them after bench's own designs, and each is measured in a child process of this same
    /// executable, counted at the SQLite level and verified like the built-ins. A name already
    /// taken, or one the command line cannot take, stops with a usage error (exit 64).
    public static func main(strategies: [any ImportStrategy.Type]) -> Never {
        BenchCommand.main(strategies: strategies)
    }
}
