import Foundation
import ImportBenchStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a result was measured, recorded with every row so numbers from two machines are never
/// compared unknowingly.
package struct MachineEnvironment: Sendable, Equatable {
    package let sqliteVersion: String
    package let sqliteCompileOptions: [String]
    package let swiftVersion: String
    package let cpuModel: String
    package let cpuCount: Int
    package let operatingSystem: String
    /// The kernel's release (`uname -r`): a new kernel moves system time and I/O.
    package var kernel: String = ""
    /// The CPU's family, model and stepping: the model name alone ("AMD EPYC") hides generations.
    package var cpuSignature: String = ""

    package static let current = MachineEnvironment(
        sqliteVersion: StoreConnection.sqliteVersion, sqliteCompileOptions: StoreConnection.compileOptions, swiftVersion: compilerVersion,
        cpuModel: readCPUModel(),
        cpuCount: ProcessInfo.processInfo.activeProcessorCount,
        operatingSystem: ProcessInfo.processInfo.operatingSystemVersionString, kernel: readKernel(), cpuSignature: readCPUSignature())

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
        cpuInfo("model name") ?? "unknown"
    }

    private static func readCPUSignature() -> String {
        let parts = [("family", "cpu family"), ("model", "model"), ("stepping", "stepping")].compactMap { label, field in
            cpuInfo(field).map { "\(label) \($0)" }
        }
        return parts.joined(separator: " ")
    }

    /// /proc/cpuinfo, read once for the four fields taken from it.
    private static let cpuInfoText = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)

    /// The first processor's value for `field` in /proc/cpuinfo.
    private static func cpuInfo(_ field: String) -> String? {
        guard let info = cpuInfoText,
            let line = info.split(separator: "\n").first(where: {
                $0.split(separator: ":", maxSplits: 1).first?.trimmingCharacters(in: .whitespaces) == field
            }),
            let value = line.split(separator: ":", maxSplits: 1).last
        else { return nil }
        return value.trimmingCharacters(in: .whitespaces)
    }

    private static func readKernel() -> String {
        var name = utsname()
        guard uname(&name) == 0 else { return "" }
        return withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
    }
}
