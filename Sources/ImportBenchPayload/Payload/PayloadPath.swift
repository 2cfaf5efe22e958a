import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a payload path must be before anything reads it: a regular file, or a directory (a GTFS
/// feed) whose entries are regular files or directories. A FIFO would keep the reader waiting
/// forever and a device (`/dev/zero`) never ends, so both are refused up front, named.
package enum PayloadPath {
    package static func check(_ path: String) throws(PayloadError) {
        switch kind(of: path) {
        case .regular: return
        case .directory:
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            for entry in entries.sorted() {
                let file = (path as NSString).appendingPathComponent(entry)
                switch kind(of: file) {
                case .regular, .directory: continue
                case .missing: continue  // a dangling link: the reader says so if it needs the file
                case .other(let what):
                    throw PayloadError(file: file, byteOffset: nil, path: nil, expected: .regularFile(inDirectory: true), found: what)
                }
            }
        case .missing:
            throw PayloadError(file: path, byteOffset: nil, path: nil, expected: .readable(.payloadFile), found: "no such file")
        case .other(let what):
            throw PayloadError(file: path, byteOffset: nil, path: nil, expected: .regularFile(inDirectory: false), found: what)
        }
    }

    private enum Kind {
        case regular, directory, missing
        case other(String)
    }

    /// The file type, links followed.
    private static func kind(of path: String) -> Kind {
        var status = stat()
        guard stat(path, &status) == 0 else { return errno == ENOENT ? .missing : .other(String(cString: strerror(errno))) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        case S_IFIFO: return .other("a FIFO (a named pipe), which could keep bench waiting forever")
        case S_IFCHR, S_IFBLK: return .other("a device, which may never end")
        case S_IFSOCK: return .other("a socket")
        default: return .other("a special file")
        }
    }
}
