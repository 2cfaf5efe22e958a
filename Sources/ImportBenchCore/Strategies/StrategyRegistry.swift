/// Every strategy `bench` knows, in the order results are listed. Register a new one here.
public enum StrategyRegistry {
    /// What `--strategy all` runs: the designs an app could ship, and the reference.
    public static var all: [any MeasuredMethod.Type] {[
        NaiveStrategy.self,
        CacheStrategy.self,
        PrewarmStrategy.self,
        UpsertStrategy.self,
        UpsertReturningStrategy.self,
        IDCacheStrategy.self,
        CeilingStrategy.self,
    ]}

    /// Known mistakes, run only when named, to show what they do to the data.
    public static var pitfalls: [any MeasuredMethod.Type] {[
        ReplaceStrategy.self,
    ]}

    /// Ways to get the data without importing it, run only when named.
    public static var alternatives: [any MeasuredMethod.Type] {[
        SeedCopyStrategy.self,
    ]}

    /// Every strategy `--strategy` accepts by name, in listing order, pitfalls last.
    public static var known: [any MeasuredMethod.Type] { all + alternatives + pitfalls }

    /// The names `--strategy all` runs, in listing order.
    public static var names: [String] { all.map { $0.name } }

    /// Every name `--strategy` accepts, pitfalls last.
    public static var knownNames: [String] { known.map { $0.name } }

    public static func strategy(named name: String) -> (any MeasuredMethod.Type)? {
        known.first { $0.name == name }
    }

    /// The methods that need `needs` prepared before they run.
    public static func needing(_ needs: MethodNeeds) -> [any MeasuredMethod.Type] {
        known.filter { $0.needs.isSuperset(of: needs) }
    }

    /// The physical reference every timing is divided by.
    public static var reference: any MeasuredMethod.Type { CeilingStrategy.self }
}
