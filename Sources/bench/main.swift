import ImportBench

Bench.main(strategies: [])
