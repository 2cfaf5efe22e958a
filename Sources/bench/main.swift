import ImportBenchCLI

BenchCommand.runFromCommandLine()
