import Foundation

/// The repository's `Scenarios/` folder, where each built-in shape is also written as a mapping
/// file: tests hold the generic reader to the hand-written one through them.
enum BuiltInMappings {
    static let scenarios: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // ImportBenchCoreTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository
        .appendingPathComponent("Scenarios")

    /// `Scenarios/NAME/mapping.yml`.
    static func path(_ scenario: String) -> String {
        scenarios.appendingPathComponent(scenario).appendingPathComponent("mapping.yml").path
    }
}
