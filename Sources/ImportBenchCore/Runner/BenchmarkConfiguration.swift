import ImportBenchStrategies

/// What to run: one run spec, through several strategies, several times.
package struct BenchmarkConfiguration {
    /// How every run imports; each run receives it with its payload and preload written as files.
    package var spec: RunSpec
    /// The ceiling is added when missing: every time is also given as a multiple of it.
    package var strategies: [ImportMethod]
    package var repetitions: Int
    /// Unmeasured rounds of every strategy first, so caches, the allocator and the file system are warm.
    package var warmup: Int
    /// Keep each run's database: the strategy's name is inserted before the extension.
    package var databasePath: String?
    /// Where the reference comes from, and the order strategies run and are listed in.
    package var catalog: StrategyCatalog

    package init(
        spec: RunSpec, strategies: [ImportMethod], repetitions: Int = 1, warmup: Int = 0, databasePath: String? = nil,
        catalog: StrategyCatalog = .builtIn
    ) {
        self.catalog = catalog
        self.spec = spec
        self.strategies = strategies
        self.repetitions = repetitions
        self.warmup = warmup
        self.databasePath = databasePath
    }

    /// A configuration of strategy types (bench's, a plug-in's, a test's).
    package init(
        spec: RunSpec, strategies: [any MeasuredMethod.Type], repetitions: Int = 1, warmup: Int = 0, databasePath: String? = nil,
        catalog: StrategyCatalog = .builtIn
    ) {
        self.init(
            spec: spec, strategies: strategies.map(ImportMethod.init), repetitions: repetitions, warmup: warmup,
            databasePath: databasePath, catalog: catalog)
    }

    /// Refuses what cannot run whatever the payload holds. The one place these rules live: the
    /// command line asks before it starts anything, the benchmark again for library callers.
    package func checkRequest() throws(RunError) {
        let planned = plannedStrategies
        if spec.preload != nil, let reason = planned.lazy.compactMap(\.refreshRefusal).first {
            throw .refused(.refreshNotMeasurable(methods: planned.filter { $0.refreshRefusal == reason }.map(\.name), reason: reason))
        }
        if case .generated = spec.preload, case .file = spec.payload { throw .refused(.generatedPreloadWithRecordedPayload) }
    }

    /// The strategies to run, the reference added when missing, in the catalog's order; a method the
    /// catalog does not know (a user's command, a test's type) after the catalog's designs and before
    /// the reference. In this process the given methods run; a measuring child process finds its
    /// strategy by name, in the catalog its executable builds (a command is measured from here).
    package var plannedStrategies: [ImportMethod] {
        var names = Set<String>()
        let given = strategies.filter { names.insert($0.name).inserted }
        let references = catalog.known.filter { $0.role == .limit && !names.contains($0.name) }
        // Twice the catalog's position, so a method it does not know fits in just before its first reference.
        let order = Dictionary(catalog.knownNames.enumerated().map { ($1, 2 * $0) }, uniquingKeysWith: { first, _ in first })
        let beforeReference = (catalog.known.firstIndex { $0.role == .limit } ?? catalog.known.count) * 2 - 1
        let planned = given + references
        func rank(_ method: ImportMethod) -> Int { order[method.name] ?? beforeReference }
        return planned.indices.sorted { (rank(planned[$0]), $0) < (rank(planned[$1]), $1) }.map { planned[$0] }
    }
}
