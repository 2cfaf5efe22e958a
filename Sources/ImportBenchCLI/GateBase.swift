import Foundation
import ImportBenchCore

/// The base the gate measures this build against: the baseline's revision exported from git (an
/// archive, so the repository's worktrees and index stay as they were) into a folder of the gate's,
/// and built there with this build's configuration: this executable's product (bench, or a plug-in's
/// executable), from the package where this executable's package lies in the repository (its top
/// package when it lies outside).
struct GateBase {
    /// The full commit id.
    let revision: String
    /// The repository's top folder.
    let repository: String
    /// The package to build, relative to the repository's top ("" for the top itself).
    let package: String
    /// The executable product to build: this executable's name.
    let product: String

    /// The file a kept base folder records its revision in, so a later gate reuses it.
    static let marker = ".importbench-gate-base"

    /// Finds `revision` in the repository holding `folder`.
    static func resolve(_ revision: String, near folder: String) throws -> GateBase {
        let top = try GateChild(executable: "git", arguments: ["-C", folder, "rev-parse", "--show-toplevel"]).run(capture: true)
        guard top.status == 0, !top.output.isEmpty else { throw CommandFailure.gate(.notARepository(folder: folder)) }
        let commit = try GateChild(executable: "git", arguments: ["-C", top.output, "rev-parse", "--verify", "--quiet", revision + "^{commit}"])
            .run(capture: true)
        guard commit.status == 0, !commit.output.isEmpty else { throw CommandFailure.gate(.unknownRevision(revision, repository: top.output)) }
        let executable = ChildProcessExecutor.current().executable
        let package = relativePath(of: BuildIdentity.packageRoot, inside: URL(fileURLWithPath: top.output)) ?? ""
        return GateBase(revision: commit.output, repository: top.output, package: package, product: executable.lastPathComponent)
    }

    /// Where `package` lies inside `repository`, both with links resolved ("" for the top itself);
    /// nil outside it, where the gate builds the repository's top package.
    static func relativePath(of package: URL, inside repository: URL) -> String? {
        let inner = package.resolvingSymlinksInPath().standardizedFileURL.pathComponents
        let outer = repository.resolvingSymlinksInPath().standardizedFileURL.pathComponents
        guard inner.starts(with: outer) else { return nil }
        return inner.dropFirst(outer.count).joined(separator: "/")
    }

    /// Exports the revision into `folder/source` (unless a kept folder already holds it) and builds
    /// the product there; returns the binary. The toolchain's own temporary files go to `folder/tmp`,
    /// removed afterwards (swift build leaves directories in TMPDIR on Linux).
    func build(in folder: URL, configuration: String) throws -> URL {
        let source = folder.appendingPathComponent("source")
        let marker = folder.appendingPathComponent(Self.marker)
        let recorded = try? String(contentsOf: marker, encoding: .utf8)
        if recorded != revision {
            try? FileManager.default.removeItem(at: source)
            try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
            let archive = folder.appendingPathComponent("base.tar").path
            try step(
                "exporting \(revision) from \(repository)",
                GateChild(executable: "git", arguments: ["-C", repository, "archive", "--format=tar", "-o", archive, revision]))
            try step("unpacking the base", GateChild(executable: "tar", arguments: ["-xf", archive, "-C", source.path]))
            try FileManager.default.removeItem(atPath: archive)
            try revision.write(to: marker, atomically: true, encoding: .utf8)
        }
        let scratch = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let packagePath = package.isEmpty ? source : source.appendingPathComponent(package)
        try step(
            "building the base's \(product) (\(revision.prefix(12)), \(configuration))",
            GateChild(
                executable: "swift", arguments: ["build", "-c", configuration, "--product", product, "--package-path", packagePath.path],
                environment: ["TMPDIR": scratch.path]))
        return packagePath.appendingPathComponent(".build/\(configuration)/\(product)")
    }

    private func step(_ name: String, _ child: GateChild) throws {
        FileHandle.standardError.write(Data("gate: \(name)\n".utf8))
        let ending = try child.run()
        guard ending.status == 0 else { throw CommandFailure.gate(.stepFailed(step: name, status: ending.status)) }
    }
}
