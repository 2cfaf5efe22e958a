import Foundation
import ImportBenchStore

/// Where a result was measured, recorded with every row so numbers from two machines are never
/// compared unknowingly.
public struct MachineEnvironment: Sendable, Equatable {
    public let sqliteVersion: String
    public let sqliteCompileOptions: [String]
    public let swiftVersion: String
    public let cpuModel: String
    public let cpuCount: Int
    public let operatingSystem: String

    public static let current = MachineEnvironment(
        sqliteVersion: Connection.sqliteVersion, sqliteCompileOptions: Connection.compileOptions, swiftVersion: compilerVersion, cpuModel: readCPUModel(),
        cpuCount: ProcessInfo.processInfo.activeProcessorCount,
        operatingSystem: ProcessInfo.processInfo.operatingSystemVersionString)

    /// The compiler that built bench, to a minor version.
    static var compilerVersion: String {
        #if compiler(>=6.4)
        return "6.4+"
        #elseif compiler(>=6.3)
        return "6.3"
        #elseif compiler(>=6.2)
        return "6.2"
        #elseif compiler(>=6.1)
        return "6.1"
        #else
        return "6.0"
        #endif
    }

    private static func readCPUModel() -> String {
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
            let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
            let value = line.split(separator: ":", maxSplits: 1).last
        else { return "unknown" }
        return value.trimmingCharacters(in: .whitespaces)
    }
}
