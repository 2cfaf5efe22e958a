import ImportBenchStrategies

/// The strategies one `bench` knows, in the order results list them: the built-ins, and those a
/// plug-in executable adds (`BenchCommand.main(strategies:)`). A value, built once and handed to
/// whatever runs or lists strategies; reporters know none of it, only the results.
package struct StrategyCatalog: @unchecked Sendable {
    // @unchecked: it holds metatypes only, which nothing can mutate.

    /// What `--strategy all` runs: the designs an app could ship, plug-ins after the built-ins, and
    /// the reference last.
    package let all: [ImportMethod]
    /// Known mistakes, run only when named, to show what they do to the data.
    package let pitfalls: [ImportMethod]
    /// Ways to get the data without importing it, run only when named.
    package let alternatives: [ImportMethod]

    /// bench's own strategies.
    package static let builtIn = StrategyCatalog(
        all: ([
            NaiveStrategy.self, CacheStrategy.self, PrewarmStrategy.self, UpsertStrategy.self, UpsertReturningStrategy.self,
            IDCacheStrategy.self, StagedStrategy.self, BulkStrategy.self, CeilingStrategy.self,
        ] as [any MeasuredMethod.Type]).map { ImportMethod($0) },
        pitfalls: [ImportMethod(ReplaceStrategy.self)],
        alternatives: [ImportMethod(SeedCopyMethod.self)])

    private init(all: [ImportMethod], pitfalls: [ImportMethod], alternatives: [ImportMethod]) {
        self.all = all
        self.pitfalls = pitfalls
        self.alternatives = alternatives
    }

    /// This catalog with `strategies` added to what `--strategy all` runs, after the designs already
    /// there and before the limit: each a design an app could ship (role `user`); the ceiling
    /// and naive stay the yardsticks. A name taken already, or not fit for a command line, is refused.
    package func adding(_ strategies: [any ImportStrategy.Type]) throws(ImportError) -> StrategyCatalog {
        var names = Set(knownNames)
        for strategy in strategies {
            guard Self.isValidName(strategy.name) else { throw .invalidName(strategy.name, origin: .plugIn) }
            guard names.insert(strategy.name).inserted else { throw .nameTaken(strategy.name, origin: .plugIn) }
        }
        let added = strategies.map { strategy in ImportMethod(plugIn: strategy) }
        let limits = all.filter { $0.role == .limit }
        let designs = all.filter { $0.role != .limit }
        return StrategyCatalog(all: designs + added + limits, pitfalls: pitfalls, alternatives: alternatives)
    }

    /// Every strategy `--strategy` accepts by name, in listing order, pitfalls last.
    package var known: [ImportMethod] { all + alternatives + pitfalls }

    /// The names `--strategy all` runs, in listing order.
    package var names: [String] { all.map { $0.name } }

    /// Every name `--strategy` accepts, pitfalls last.
    package var knownNames: [String] { known.map { $0.name } }

    /// The strategy `--strategy` names `name`, if the catalog knows one.
    package func strategy(named name: String) -> ImportMethod? {
        known.first { $0.name == name }
    }

    /// SQLite's limit (the ceiling), which every timing is divided by.
    package var limit: ImportMethod { ImportMethod(CeilingStrategy.self) }

    /// Lower-case letters, digits and `-`, starting with a letter: a name the command line, CSV
    /// and file names take as it is, and that `all` and a comma cannot be mistaken for.
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first), name != "all" else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }
}
