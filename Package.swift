// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ImportBench",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "bench", targets: ["bench"]),
        // What a plug-in imports: its strategies beside bench's, measured and verified alike (docs/plugins.md).
        .library(name: "ImportBench", targets: ["ImportBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Reader latency percentiles, corrected for coordinated omission.
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        // Mapping files (issue 13): YAML is written by people, and Yams gives every node its line and column.
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // System libraries: the real SQLite through its C API, and jemalloc as the process allocator.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // Payloads compressed with gzip, inflated while they stream (issue 31).
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        .systemLibrary(
            name: "CJemalloc",
            pkgConfig: "jemalloc",
            providers: [.apt(["libjemalloc-dev"]), .brew(["jemalloc"])]
        ),
        // SQLite's own price for a store's rows, in plain C: what the harness's times are set against.
        .target(name: "CReference", linkerSettings: [.linkedLibrary("sqlite3")]),
        // What the decoder's hot loop needs and Swift cannot spell: a cache prefetch, the SSE2 string scan.
        .target(name: "CHotPath"),
        // Process controls Swift cannot call (prctl is variadic): a child that dies with its parent.
        .target(name: "CProcess"),
        // The kernel's performance counters (perf_event_open has no libc wrapper): instructions per import.
        .target(name: "CCounters"),
        // Counts what every connection of the process executes, through an SQLite auto extension and
        // `sqlite3_trace_v2`: a plug-in's importer on GRDB or any other layer is counted like bench's own.
        // CounterLibrary/ is the same counter as a library preloaded into a user's command (LD_PRELOAD),
        // compiled by bench as plain C when a command first runs (CounterLibrary.swift).
        .target(name: "CSQLCounter", exclude: ["CounterLibrary"], linkerSettings: [.linkedLibrary("sqlite3")]),
        // The counted SQLite layer: knows SQL and counters, nothing of strategies.
        .target(name: "ImportBenchStore", dependencies: ["CSQLite", "CSQLCounter"]),
        // The schema: entities, attributes, relationships, and the store's DDL; nothing of payloads or strategies.
        .target(name: "ImportBenchSchema", dependencies: ["ImportBenchStore"]),
        // Payload reading, records and mappings: JSON, JSON Lines and CSV read into record batches,
        // by the built-in readers or a mapping file's. One target, so the decoder's hot loop (tape,
        // member lookup, record buffers) stays within one module's optimizer.
        .target(
            name: "ImportBenchPayload",
            dependencies: [
                "ImportBenchStore", "ImportBenchSchema", "CHotPath", "CZlib",
                .product(name: "Yams", package: "Yams"),
            ]),
        // The strategies: what writes record batches into a store, the built-ins written against the
        // protocol a plug-in adopts, and the helpers they share; nothing of how a run is measured.
        .target(name: "ImportBenchStrategies", dependencies: ["ImportBenchStore", "ImportBenchSchema", "ImportBenchPayload", "CHotPath"]),
        // Scenarios, measured methods, runner, verifier, meters, reader probe.
        .target(
            name: "ImportBenchCore",
            dependencies: [
                "ImportBenchStore", "ImportBenchSchema", "ImportBenchPayload", "ImportBenchStrategies", "CJemalloc", "CReference", "CHotPath",
                "CCounters",
                "CProcess", .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]),
        // Reporters: know only results.
        .target(name: "ImportBenchReport", dependencies: ["ImportBenchCore"]),
        // Expectations: rules between the strategies of one run, parsed (files are YAML, located by
        // line) and judged on the results.
        .target(
            name: "ImportBenchExpectations", dependencies: ["ImportBenchReport", "ImportBenchCore", .product(name: "Yams", package: "Yams")]),
        // Commands: parse arguments, call the core, hand results to reporters, map outcomes to exit codes.
        .target(
            name: "ImportBenchCLI",
            dependencies: [
                "ImportBenchCore",
                "ImportBenchReport",
                "ImportBenchExpectations",
                "CProcess",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The plug-in library: the public surface (strategy protocol, records, counted connection,
        // refresh helpers) and the entry point; everything else stays inside the package.
        .target(
            name: "ImportBench",
            dependencies: [
                "ImportBenchCLI", "ImportBenchCore", "ImportBenchPayload", "ImportBenchSchema", "ImportBenchStore",
                "ImportBenchStrategies",
            ]),
        .executableTarget(name: "bench", dependencies: ["ImportBench"]),
        .testTarget(name: "ImportBenchStoreTests", dependencies: ["ImportBenchStore", "CSQLite"]),
        .testTarget(
            name: "ImportBenchCoreTests",
            dependencies: ["ImportBenchCore", "ImportBenchPayload", "ImportBenchSchema", "ImportBenchStore", "ImportBenchStrategies"]),
        .testTarget(
            name: "ImportBenchReportTests",
            dependencies: [
                "ImportBenchReport", "ImportBenchExpectations", "ImportBenchCore", "ImportBenchPayload", "ImportBenchSchema", "ImportBenchStrategies",
            ]),
        .testTarget(
            name: "BenchCLITests",
            dependencies: [
                "ImportBenchCLI", "ImportBenchCore", "ImportBenchPayload", "ImportBenchReport", "ImportBenchSchema", "ImportBenchStrategies",
            ]),
        // A strategy written against the plug-in library alone, verified like the built-ins.
        // Its public surface, listed in public-api.txt, each symbol documented.
        .testTarget(name: "PluginTests", dependencies: ["ImportBench", "ImportBenchCore", "ImportBenchExpectations"], exclude: ["public-api.txt"]),
    ],
    swiftLanguageModes: [.v6]
)
