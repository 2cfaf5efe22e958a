import Foundation

/// The counter library, preloaded into a command (`LD_PRELOAD`): bench's SQLite-level counter,
/// compiled from this checkout's C sources with the toolchain's C compiler as a plain C library.
/// A SwiftPM product would link the Swift runtime into it, and so into every process of the
/// command: 60 ms and 4 MB more for `python3 -c pass` on the 2-core CI machine. Built once per
/// version of the sources, beside bench's executable.
package enum CounterLibrary {
    /// The sources, relative to the package root: the counter and the library's start and end.
    static let sources = ["Sources/CSQLCounter/sql_counter.c", "Sources/CSQLCounter/CounterLibrary/counter_library.c"]
    static let includes = "Sources/CSQLCounter/include"

    /// The library for these sources in `folder`, compiled first if it is not there yet.
    package static func path(in folder: URL, sourceRoot: URL = BuildIdentity.sourceRoot) throws(ImportError) -> String {
        let files = sources.map { sourceRoot.appendingPathComponent($0) } + [sourceRoot.appendingPathComponent("\(includes)/CSQLCounter.h")]
        // FNV-1a over the sources: a changed counter gets a library of its own.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for file in files {
            guard let data = FileManager.default.contents(atPath: file.path) else {
                throw .counterMissing(path: file.path, reason: "bench's C sources are not at \(sourceRoot.path), where it was built from")
            }
            for byte in data { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        let library = folder.appendingPathComponent("libImportBenchSQLCounts-\(String(hash, radix: 16)).so").path
        // LD_PRELOAD splits its list at spaces and colons: such a path would preload nothing, silently.
        guard !library.contains(where: { $0 == " " || $0 == ":" }) else {
            throw .counterMissing(
                path: library, reason: "LD_PRELOAD cannot take a path with a space or a colon; build bench in a folder without them")
        }
        if FileManager.default.fileExists(atPath: library) { return library }
        let staging = library + ".\(getpid()).tmp"
        let arguments =
            ["-shared", "-fPIC", "-O2", "-I", sourceRoot.appendingPathComponent(includes).path]
            + sources.map { sourceRoot.appendingPathComponent($0).path } + ["-o", staging, "-lsqlite3", "-lpthread"]
        let compiled = try compile(arguments)
        guard compiled.status == 0, rename(staging, library) == 0 else {
            unlink(staging)
            throw .counterMissing(path: library, reason: "the C compiler said: \(compiled.output.suffix(600))")
        }
        return library
    }

    /// Runs the first C compiler found: the one beside `swift` (the toolchain's clang), then `cc`.
    private static func compile(_ arguments: [String]) throws(ImportError) -> (status: Int32, output: String) {
        for compiler in ["clang", "cc"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [compiler] + arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            process.standardInput = FileHandle.nullDevice
            do { try process.run() } catch { continue }
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            // env exits 127 when it cannot find the compiler: try the next one.
            if process.terminationStatus == 127 { continue }
            return (process.terminationStatus, text)
        }
        throw .counterMissing(path: "clang", reason: "no C compiler (clang or cc) on PATH")
    }
}
