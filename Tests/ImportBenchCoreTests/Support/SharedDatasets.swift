import Foundation
import Testing

/// The real public payloads in ../shared/datasets beside the repository. Never copied into the repo;
/// tests that need them are skipped, saying why, where the folder is absent.
enum SharedDatasets {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // ImportBenchCoreTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository
        .deletingLastPathComponent()
        .appendingPathComponent("shared/datasets")

    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    static var available: Bool { FileManager.default.fileExists(atPath: root.path) }

    static let skipReason: Comment = "../shared/datasets is absent beside the repository; real-payload tests skipped"
}
