import Foundation
import ImportBenchPayload
import ImportBenchStore

#if canImport(Glibc)
    import Glibc
#endif

/// What a command did to the store bench created for it, found after the command ended: the store
/// deleted, replaced, emptied, overwritten, given companions SQLite would read as its own, left
/// unreadable (SQLite's error kept whole, with the processes holding the store open), or held open
/// by processes the command left running. Each is the command's doing, and the message says so.
package enum CommandStoreProblem: Equatable, Sendable, Codable {
    /// What a path holds, when it is not a plain file of the store's own.
    package enum Found: Equatable, Sendable, Codable, CustomStringConvertible {
        case symbolicLink(target: String)
        case directory
        /// A FIFO, a socket or a device.
        case special
        /// A file with `links` names: what SQLite writes to it reaches another path too.
        case hardLinked(links: Int)

        package var description: String {
            switch self {
            case .symbolicLink(let target): return "a symbolic link to \(target)"
            case .directory: return "a directory"
            case .special: return "a special file (a FIFO, socket or device)"
            case .hardLinked(let links): return "a file with \(links) names (a hard link to another file)"
            }
        }
    }

    /// Nothing is at the store's path any more.
    case deleted
    /// Something other than a file is at the store's path.
    case notAFile(Found)
    /// Another file (another device and inode) is at the store's path.
    case replaced
    /// The store's file holds no bytes.
    case emptied
    /// The store's file is no longer a store of bench's: `found` is what its header says it is.
    case overwritten(found: String)
    /// A companion SQLite opens with the store (`-wal`, `-shm`, `-journal`) is not a file of its own.
    case companion(suffix: String, found: Found)
    /// SQLite could not read the store: its error, and the processes that hold the store open.
    case unreadable(StoreError, holders: [NamedProcess])
    /// Processes the command left running held the store open when it ended (bench killed them,
    /// and everything else it left: `leftRunning` in all).
    case heldOpen(by: [NamedProcess], leftRunning: Int)

    /// The sentence for `command`'s store at `path`.
    func message(command: String, path: String) -> String {
        let rule = "A command imports into the store bench created for it (BENCH_DB, {db}) and leaves it there"
        switch self {
        case .deleted:
            return "\(command) deleted its store: nothing is at \(path) since it ended. \(rule)"
        case .notAFile(let found):
            return "\(command) left \(found) at its store's path, \(path), where bench had created the store. \(rule)"
        case .replaced:
            return "\(command) replaced its store \(path) with another file (not the one bench created: another inode). \(rule)"
        case .emptied:
            return "\(command) emptied its store \(path): the file holds 0 bytes since it ended"
        case .overwritten(let found):
            return "\(command) overwrote its store \(path): bench found \(found) there after it ended"
        case .companion(let suffix, let found):
            return "\(command) left \(found) as its store's \(suffix) (\(path)\(suffix)), which SQLite would read as the store's own: "
                + "bench does not open the store so. Leave SQLite's companion files to SQLite"
        case .unreadable(let error, let holders):
            let held = holders.isEmpty ? "" : "; held open by \(holders.map(\.description).joined(separator: ", "))"
            switch error.primaryCode {
            case 5, 6:
                return "\(command) left its store \(path) locked: bench cannot read it (\(error))\(held)"
            case 11, 26:
                return "\(command) left its store \(path) corrupt: bench cannot read it (\(error))\(held)"
            default:
                return "bench cannot read the store \(command) left at \(path): \(error)\(held)"
            }
        case .heldOpen(let holders, let leftRunning):
            let one = holders.count == 1
            let others = leftRunning - holders.count
            let alsoKilled = others > 0 ? ", and the \(others) other process\(others == 1 ? "" : "es") it left running" : ""
            return "\(command) ended while \(holders.map(\.description).joined(separator: ", ")), started by it and not waited for, "
                + "still held its store \(path) open. bench killed \(one ? "it" : "them")\(alsoKilled); what \(one ? "it" : "they") "
                + "wrote after \(command) ended is outside the measured time. A command must wait for every process it starts"
        }
    }
}

/// The store bench created for a command, as it was before the command ran, to tell afterwards
/// what the command did to it.
struct CommandStoreSnapshot {
    let path: String
    let device: UInt64
    let inode: UInt64
    static let companionSuffixes = ["-wal", "-shm", "-journal"]

    init(path: String) {
        self.path = path
        var status = stat()
        let found = lstat(path, &status) == 0
        device = found ? UInt64(status.st_dev) : 0
        inode = found ? UInt64(status.st_ino) : 0
    }

    /// What the command did to the store that can be seen without opening it; nil when its path
    /// holds the file bench created, still marked as bench's, with plain companions.
    func problem() -> CommandStoreProblem? {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            // Any other failure to look (a directory made unreadable) is left for SQLite to report.
            return errno == ENOENT || errno == ENOTDIR ? .deleted : nil
        }
        if let found = Self.found(path, status, linksAllowed: true) { return .notAFile(found) }
        if UInt64(status.st_dev) != device || UInt64(status.st_ino) != inode { return .replaced }
        for suffix in Self.companionSuffixes {
            var companion = stat()
            guard lstat(path + suffix, &companion) == 0 else { continue }
            if let found = Self.found(path + suffix, companion, linksAllowed: false) { return .companion(suffix: suffix, found: found) }
        }
        switch DatabaseFile.occupant(of: path) {
        case .benchStore: return nil
        case .emptyFile: return .emptied
        case .nothing: return .deleted
        case .other(let what): return .overwritten(found: what)
        }
    }

    /// What `path` is when it is not a plain file (a file of one name, unless `linksAllowed`).
    private static func found(_ path: String, _ status: stat, linksAllowed: Bool) -> CommandStoreProblem.Found? {
        switch status.st_mode & S_IFMT {
        case S_IFREG: return !linksAllowed && status.st_nlink > 1 ? .hardLinked(links: Int(status.st_nlink)) : nil
        case S_IFDIR: return .directory
        case S_IFLNK:
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
            return .symbolicLink(target: target)
        default: return .special
        }
    }

    /// The processes (other than bench) that hold the store or a companion of it open, as far as
    /// /proc shows them (another user's are not shown): what a message about a locked store names.
    func holders() -> [NamedProcess] {
        var files: Set<[UInt64]> = []
        for file in [path] + Self.companionSuffixes.map({ path + $0 }) {
            var status = stat()
            if stat(file, &status) == 0 { files.insert([UInt64(status.st_dev), UInt64(status.st_ino)]) }
        }
        if device != 0 || inode != 0 { files.insert([device, inode]) }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        var holders: [NamedProcess] = []
        for pid in entries.compactMap(Int32.init).sorted() where pid != getpid() {
            let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
            let holds = descriptors.contains { descriptor in
                var status = stat()
                return stat("/proc/\(pid)/fd/\(descriptor)", &status) == 0 && files.contains([UInt64(status.st_dev), UInt64(status.st_ino)])
            }
            guard holds else { continue }
            let name = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            holders.append(NamedProcess(pid: pid, name: name ?? ""))
        }
        return holders
    }
}
