import ImportBench

/// bench's five strategies written with GRDB, in the order bench lists its own.
public enum GRDBStrategies {
    public static var all: [any ImportStrategy.Type] {
        [GRDBNaive.self, GRDBCache.self, GRDBPrewarm.self, GRDBUpsert.self, GRDBIDCache.self]
    }
}
