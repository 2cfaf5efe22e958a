import CProcess
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A run's scratch directory in the temporary directory, `importbench-PID-XXXXXXXX`, holding a
/// marker file. A run killed outright (SIGKILL, a power cut) cannot remove it; the next start
/// removes it once its process is gone. The name and the marker together say it is bench's, so
/// nothing else in the temporary directory is ever touched.
package struct RunDirectory: Sendable {
    package let url: URL
    static let prefix = "importbench-"
    static let markerName = ".importbench-run"

    /// Creates this process's directory, marked.
    package static func create(in parent: URL = FileManager.default.temporaryDirectory) throws -> RunDirectory {
        let name = "\(prefix)\(getpid())-\(UUID().uuidString.prefix(8))"
        let url = parent.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        // Also removed by a second stopping signal, which quits without the usual clean-up.
        _ = importbench_directory_register(url.path, markerName)
        try Data("bench run, process \(getpid())\n".utf8).write(to: url.appendingPathComponent(markerName))
        return RunDirectory(url: url)
    }

    package func remove() {
        try? FileManager.default.removeItem(at: url)
        importbench_directory_unregister(url.path)
    }

    /// Removes the directories of bench runs whose process no longer exists; returns their paths.
    /// A directory whose process is alive (another bench running now), or that lacks the marker,
    /// or whose name is not exactly a run's, is left alone.
    @discardableResult
    package static func removeAbandoned(in parent: URL = FileManager.default.temporaryDirectory) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else { return [] }
        var removed: [String] = []
        for name in names {
            guard let pid = processID(inName: name), !isAlive(pid) else { continue }
            let url = parent.appendingPathComponent(name)
            var status = stat()
            guard lstat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR,
                lstat(url.appendingPathComponent(markerName).path, &status) == 0, status.st_mode & S_IFMT == S_IFREG
            else { continue }
            if (try? FileManager.default.removeItem(at: url)) != nil { removed.append(url.path) }
        }
        return removed
    }

    /// The PID in `importbench-PID-XXXXXXXX`, or nil for any other name.
    static func processID(inName name: String) -> pid_t? {
        guard name.hasPrefix(prefix) else { return nil }
        let parts = name.dropFirst(prefix.count).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 8, parts[1].allSatisfy(\.isHexDigit),
            parts[0].allSatisfy({ $0.isASCII && $0.isNumber }), let pid = pid_t(parts[0]), pid > 0
        else { return nil }
        return pid
    }

    /// Whether a process with this PID exists (one of another user counts as alive).
    static func isAlive(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
