/// Every strategy `bench` knows, in the order results are listed. Register a new one here.
public enum StrategyRegistry {
    public static var all: [any ImportStrategy.Type] {[
        NaiveStrategy.self,
        CacheStrategy.self,
        PrewarmStrategy.self,
        UpsertStrategy.self,
        IDCacheStrategy.self,
        CeilingStrategy.self,
    ]}

    public static var names: [String] { all.map { $0.name } }

    public static func strategy(named name: String) -> (any ImportStrategy.Type)? {
        all.first { $0.name == name }
    }

    /// The physical reference every timing is divided by.
    public static var reference: any ImportStrategy.Type { CeilingStrategy.self }
}
