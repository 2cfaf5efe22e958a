import Foundation
import ImportBenchStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Stores `bench` creates carry its mark in the database header, and `bench` replaces only what
/// carries it: a directory, a text file or another application's database at a store's path is
/// never deleted or overwritten, and the run stops before any import, naming what is there.
extension DatabaseFile {
    /// `PRAGMA application_id`: "IBnc", ImportBench. SQLite keeps it at offset 68 of the header.
    package static let applicationID: Int32 = 0x4942_6E63
    /// `PRAGMA user_version`: the mark's own version.
    static let markVersion: Int32 = 1

    /// What a path holds, as far as writing a store there goes.
    package enum Occupant: Equatable, Sendable {
        case nothing
        /// A file of no bytes, with or without a journal or WAL beside it: what a run killed before
        /// its store's first commit leaves. It holds nothing to lose, so it is replaced, companions too.
        case emptyFile
        /// A store `bench` made: safe to replace.
        case benchStore
        /// Anything else, described for a message ("a directory", "a SQLite database of another application").
        case other(String)
    }

    /// Marks a new, empty store as `bench`'s. Call it before the journal becomes WAL, so the mark
    /// reaches the main file's header at once rather than waiting in the WAL for a checkpoint.
    static func mark(_ store: StoreConnection) throws {
        try store.execute("PRAGMA application_id = \(applicationID)")
        try store.execute("PRAGMA user_version = \(markVersion)")
    }

    /// Reads what is at `path` without opening it as a database (which could create files beside
    /// it): its file type, then the first 100 bytes of a regular file.
    package static func occupant(of path: String) -> Occupant {
        if path.isEmpty { return .other("an empty path") }
        var status = stat()
        guard lstat(path, &status) == 0 else {
            // Nothing there (or a file where a directory of the path should be, which the write will report).
            if errno == ENOENT || errno == ENOTDIR { return companionsOccupant(of: path) }
            return .other("a path that cannot be examined (\(String(cString: strerror(errno))))")
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return .other("a directory")
        case S_IFLNK: return .other("a symbolic link")
        default: return .other("a special file (a FIFO, socket or device)")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .other("a file that cannot be read (\(String(cString: strerror(errno))))") }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 100)
        let count = header.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 100) }
        if count == 0 { return .emptyFile }
        let magic = Array("SQLite format 3\0".utf8)
        guard count == 100, Array(header[0..<16]) == magic else { return .other("a file that is not a SQLite database") }
        let identifier = header[68..<72].reduce(Int32(0)) { $0 << 8 | Int32($1) }
        if identifier == applicationID { return .benchStore }
        if identifier == 0 { return .other("a SQLite database that bench did not create (it carries no application_id)") }
        return .other("a SQLite database of another application (application_id \(identifier))")
    }

    /// No database at `path`: a journal or WAL left beside it would be applied to a new store there.
    private static func companionsOccupant(of path: String) -> Occupant {
        for suffix in companionSuffixes where FileManager.default.fileExists(atPath: path + suffix) {
            return .other("no database, but a \(suffix.dropFirst()) file of one beside it (\(path + suffix))")
        }
        return .nothing
    }

    /// The order a store's files are removed in: the companions first, the main file, which carries
    /// the mark, last. A removal stopped halfway (a SIGKILL) so leaves a store bench still recognizes
    /// as its own, never a journal or WAL alone, which the next run would refuse to write beside.
    static let removalOrder = companionSuffixes + [""]

    /// Removes a store `bench` made, with its companion files; anything else at `path` is left as it
    /// is and reported. Nothing at `path` is fine.
    package static func removeOwnStore(_ path: String) throws(RunError) {
        switch occupant(of: path) {
        case .nothing: return
        case .benchStore, .emptyFile:
            for suffix in removalOrder { unlink(path + suffix) }
        case .other(let what):
            throw .refused(.notOurStore(path: path, found: what))
        }
    }
}
