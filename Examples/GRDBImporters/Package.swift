// swift-tools-version:6.0
import Foundation
import PackageDescription

// SwiftPM names a package depended on by path after its folder, whatever the clone is called.
let bench = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

// bench's five import strategies as a GRDB user writes them (Codable records, the query interface,
// one DatabaseQueue), plugged into bench: `swift run -c release grdb-bench run ...` measures them
// beside bench's own on the same payload, counted and verified alike (README.md).
let package = Package(
    name: "GRDBImporters",
    platforms: [.macOS(.v13)],
    dependencies: [
        // bench itself, from this checkout.
        .package(path: "../.."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        .target(
            name: "GRDBImporters",
            dependencies: [
                .product(name: "ImportBench", package: bench),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .executableTarget(
            name: "grdb-bench", dependencies: ["GRDBImporters", .product(name: "ImportBench", package: bench)]),
        // The tests' fixture: a strategy that installs GRDB's own trace, which bench must refuse.
        .executableTarget(
            name: "grdb-traced-bench",
            dependencies: ["GRDBImporters", .product(name: "ImportBench", package: bench), .product(name: "GRDB", package: "GRDB.swift")]),
        // Also compiles bench's own minimal plug-in (a link to Tests/PluginTests/OneUpsertStrategy.swift,
        // the one docs/plugins.md shows) from outside bench's package, where only the public API is seen.
        // GRDB reads the stores the runs leave, to check the rows themselves.
        .testTarget(
            name: "GRDBImportersTests",
            dependencies: ["GRDBImporters", .product(name: "ImportBench", package: bench), .product(name: "GRDB", package: "GRDB.swift")]),
    ],
    swiftLanguageModes: [.v6]
)
