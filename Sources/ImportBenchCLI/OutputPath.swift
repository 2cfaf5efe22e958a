import Foundation
import ImportBenchExpectations
import ImportBenchReport

/// Output paths checked before any work, so a run does not import for minutes and then find it
/// cannot write its results, and so that bench never writes over what it did not make: the path
/// must not be a directory, its directory (or the nearest one that exists, which the write will
/// create below) must be writable, it must not be a file the same command reads (compared by
/// device and inode, so through symbolic and hard links), and a file already there must be one
/// bench wrote for the same purpose, unless `--force` says to replace it.
enum OutputPath {
    /// A file the command reads, and the option (or argument) that named it.
    struct Input {
        let path: String
        let option: String
    }

    /// What a command writes at an output path: how bench recognizes a file it wrote there before.
    enum Kind: Equatable, CustomStringConvertible {
        /// `bench run --csv`: its first line is the results contract's header.
        case resultsCSV
        /// `bench report --out`: the page's title names ImportBench.
        case htmlReport
        /// `bench report --format svg`: one chart a file, its root element marked as bench's chart.
        case svgChart
        /// `bench export --out`: JSON in a dashboard's format, recognized by the members bench's
        /// exports open with (Bencher's `lower_value`, github-action-benchmark's `range`), so that a
        /// JSON payload is never taken for one.
        case dashboardJSON
        /// `bench run --expect`'s verdicts beside the results CSV: its header line is the verdicts'.
        case expectationsCSV
        /// `bench generate --out`: a payload looks like any other, so one already there (a file, or
        /// a directory holding a feed) is never taken for bench's.
        case payload

        var description: String {
            switch self {
            case .resultsCSV: return "a results CSV written by bench run"
            case .htmlReport: return "an HTML report written by bench report"
            case .svgChart: return "a chart written by bench report --format svg"
            case .dashboardJSON: return "a JSON export written by bench export"
            case .expectationsCSV: return "expectations' verdicts written by bench run"
            case .payload: return "a payload"
            }
        }

        /// Whether a file's first bytes show bench wrote it for this purpose; an empty file holds
        /// nothing to lose.
        func recognizes(_ head: [UInt8]) -> Bool {
            if head.isEmpty { return true }
            let text = String(decoding: head, as: UTF8.self)
            switch self {
            case .resultsCSV: return text.hasPrefix("scenario,strategy,")
            case .htmlReport: return text.hasPrefix("<!DOCTYPE html>") && text.contains("<title>ImportBench report")
            case .svgChart: return text.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" data-chart=")
            case .dashboardJSON:
                let start = text.drop { $0.isWhitespace }.first
                return (start == "{" || start == "[") && (text.contains("\"lower_value\" :") || text.contains("\"range\" : \"±"))
            case .expectationsCSV: return text.hasPrefix(ExpectationReport.csvColumns.joined(separator: ",") + "\r\n")
            case .payload: return false
            }
        }
    }

    /// Checks `path` as the output of `option` (`--csv`), of `kind`, for a command reading `inputs`;
    /// a refusal is the command's failure (exit 1), naming the option and the path.
    static func check(_ path: String, for option: String, kind: Kind, inputs: [Input] = [], force: Bool = false) throws {
        try refuseUnfit(path, for: option, kind: kind, inputs: inputs, force: force)
    }

    private static func refuseUnfit(_ path: String, for option: String, kind: Kind, inputs: [Input], force: Bool) throws {
        guard !path.isEmpty else { throw CommandFailure.refused(OutputRefusal(option: option, path: path, reason: .empty)) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            try checkDirectory(of: path, for: option)
            return
        }
        // A payload may be a directory (a GTFS feed); nothing else bench writes is.
        if isDirectory.boolValue && kind != .payload { throw CommandFailure.refused(OutputRefusal(option: option, path: path, reason: .directory)) }
        if let input = inputs.first(where: { sameFile($0.path, path) }) {
            throw CommandFailure.refused(OutputRefusal(option: option, path: path, reason: .input(option: input.option)))
        }
        guard access(path, W_OK) == 0 else {
            throw CommandFailure.refused(OutputRefusal(option: option, path: path, reason: .notWritable(String(cString: strerror(errno)))))
        }
        let unused =
            isDirectory.boolValue
            ? (try? FileManager.default.contentsOfDirectory(atPath: path).isEmpty) == true : kind.recognizes(head(of: path))
        if !force && !unused {
            throw CommandFailure.refused(OutputRefusal(option: option, path: path, reason: .notBenchs(expected: kind)))
        }
    }

    /// The nearest existing directory of a path that does not exist yet must be a writable directory.
    private static func checkDirectory(of path: String, for option: String) throws {
        var isDirectory: ObjCBool = false
        var directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { break }
            directory = parent
        }
        guard isDirectory.boolValue else {
            throw CommandFailure.refused(OutputRefusal(option: option, path: path, reason: .parentIsFile(directory.path)))
        }
        guard access(directory.path, W_OK | X_OK) == 0 else {
            throw CommandFailure.refused(
                OutputRefusal(option: option, path: path, reason: .directoryNotWritable(directory.path, String(cString: strerror(errno)))))
        }
    }

    /// Whether two paths name one file: the same device and inode, symbolic links followed.
    static func sameFile(_ first: String, _ second: String) -> Bool {
        var a = stat()
        var b = stat()
        guard stat(first, &a) == 0, stat(second, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    /// The first KiB of a file, enough to recognize what wrote it; empty when unreadable.
    private static func head(of path: String) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 1024)).map { Array($0) } ?? []
    }
}

/// Why bench will not write an output where it was asked to: the option, the path, and what was
/// found there, for the user to give another path (or `--force`, where the file is only not bench's).
/// It reaches the user inside the command line's one error, `CommandFailure`.
struct OutputRefusal: CustomStringConvertible {

    enum Reason: Equatable {
        case empty
        case directory
        case notWritable(String)
        case parentIsFile(String)
        case directoryNotWritable(String, String)
        /// The file is one the command reads, named by this option.
        case input(option: String)
        /// A file is there that bench did not write for this purpose.
        case notBenchs(expected: OutputPath.Kind)
    }

    let option: String
    let path: String
    let reason: Reason

    var description: String {
        switch reason {
        case .empty: return "\(option): an empty path; give a file path"
        case .directory: return "\(option) \(path): a directory; give a file path inside it"
        case .notWritable(let why): return "\(option) \(path): cannot be written (\(why))"
        case .parentIsFile(let parent): return "\(option) \(path): \(parent) is a file, not a directory"
        case .directoryNotWritable(let directory, let why): return "\(option) \(path): cannot write in \(directory) (\(why))"
        case .input(let input):
            return "\(option) \(path): that is the file this command reads as \(input); bench never writes over its input. "
                + "Give another path; nothing was written"
        case .notBenchs(.payload):
            return "\(option) \(path): something is already there, and a payload bench generated looks like any other, so bench "
                + "replaces none without --force. Give another path, or add --force to replace it; nothing was written"
        case .notBenchs(let expected):
            return "\(option) \(path): a file is already there, and it is not \(expected). "
                + "Give another path, or add --force to replace it; nothing was written"
        }
    }
}
