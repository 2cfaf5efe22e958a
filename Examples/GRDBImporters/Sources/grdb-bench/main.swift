import GRDBImporters
import ImportBench

Bench.main(strategies: GRDBStrategies.all)
