import Foundation

/// Which code made a result: the build configuration and the git revision of the source tree bench
/// was built from. A timing means something only beside another of the same build, and the CI gate
/// rebuilds the revision a baseline names to measure it again on the machine at hand.
package struct BuildIdentity: Sendable, Equatable {
    /// `debug` or `release`: SwiftPM defines DEBUG in debug builds only.
    package let configuration: String
    /// The commit checked out in the source tree, with `-dirty` when its code (Sources, Package.swift)
    /// had uncommitted changes; empty when it is not a git checkout or git is missing.
    package let revision: String

    package init(configuration: String, revision: String) {
        self.configuration = configuration
        self.revision = revision
    }

    /// What `revision` ends with when the tree's code differs from the commit: such a revision
    /// cannot be rebuilt.
    package static let dirtySuffix = "-dirty"

    /// The revision as people read it: 12 hex digits, and the mark of uncommitted code.
    package static func short(_ revision: String) -> String {
        String(revision.prefix(12)) + (revision.hasSuffix(dirtySuffix) ? dirtySuffix : "")
    }

    /// Read once per process. IMPORTBENCH_GIT_REVISION overrides the revision, for a tree exported
    /// without its .git (the gate's rebuilt base).
    package static let current = BuildIdentity(configuration: compiledConfiguration, revision: readRevision())

    static var compiledConfiguration: String {
        #if DEBUG
            return "debug"
        #else
            return "release"
        #endif
    }

    /// The package's root, from this file's path at compile time.
    package static var sourceRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// The package whose build made this executable: the folder holding the `.build` it lies in (a
    /// plug-in's package, for a plug-in's executable), else bench's own sources.
    package static let packageRoot: URL = executablePackageRoot ?? sourceRoot

    /// The executable's package, found from where SwiftPM put it (`<package>/.build/.../name`).
    static var executablePackageRoot: URL? {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        var folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        while folder.pathComponents.count > 1 {
            if folder.lastPathComponent == ".build" {
                let root = folder.deletingLastPathComponent()
                return FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) ? root : nil
            }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    /// HEAD of the executable's package, `-dirty` when its code, or bench's in the same repository
    /// (a plug-in beside bench, as the GRDB example is), differs from it.
    private static func readRevision() -> String {
        if let given = ProcessInfo.processInfo.environment["IMPORTBENCH_GIT_REVISION"], !given.isEmpty { return given }
        let root = packageRoot.path
        guard FileManager.default.fileExists(atPath: root + "/Package.swift"),
            let head = git(["-C", root, "rev-parse", "--verify", "--quiet", "HEAD"]), !head.isEmpty,
            let changes = git(["-C", root, "status", "--porcelain", "--", "Sources", "Package.swift"])
        else { return "" }
        var roots = [root]
        if sourceRoot.path != root,
            git(["-C", sourceRoot.path, "rev-parse", "--show-toplevel"]) == git(["-C", root, "rev-parse", "--show-toplevel"])
        {
            roots.append(sourceRoot.path)
        }
        let dirty =
            !changes.isEmpty
            || roots.dropFirst().contains { git(["-C", $0, "status", "--porcelain", "--", "Sources", "Package.swift"])?.isEmpty == false }
        return head + (dirty ? dirtySuffix : "")
    }

    /// git's standard output, trimmed; nil when git is missing or fails.
    private static func git(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
