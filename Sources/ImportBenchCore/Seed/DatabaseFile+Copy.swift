import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Moving a whole store between places without a reader ever seeing half of it: bytes are copied to
/// a staging name in the destination's directory, and only a finished file is renamed into place.
extension DatabaseFile {
    /// Copies a file's bytes through a fixed buffer, so memory does not grow with the store.
    static func copyContents(from source: String, to destination: String) throws {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw failure("read", source) }
        defer { close(input) }
        let output = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw failure("create", destination) }
        defer { close(output) }
        let capacity = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(input, buffer, capacity)
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("read", source)
            }
            if count == 0 { return }
            var written = 0
            while written < count {
                let step = write(output, buffer + written, count - written)
                if step < 0 {
                    if errno == EINTR { continue }
                    throw failure("write", destination)
                }
                written += step
            }
        }
    }

    /// Moves a finished store into place with one rename. The destination's old journal files go
    /// first: SQLite would replay a stale -wal or -journal into the new file.
    /// `durable` syncs the file before the rename and the directory after, so a power cut leaves the
    /// old store or the new one, never a torn one.
    static func publish(_ staged: String, as destination: String, durable: Bool) throws {
        if durable { try synchronize(staged) }
        for suffix in companionSuffixes {
            let companion = destination + suffix
            if unlink(companion) != 0 && errno != ENOENT { throw failure("remove", companion) }
        }
        guard rename(staged, destination) == 0 else { throw failure("rename \(staged) to", destination) }
        if durable {
            let directory = (destination as NSString).deletingLastPathComponent
            try synchronize(directory.isEmpty ? "." : directory)
        }
    }

    /// Flushes a file or directory to the disk.
    static func synchronize(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("open", path) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw failure("sync", path) }
    }

    private static func failure(_ operation: String, _ path: String) -> ImportError {
        .fileOperation(operation: operation, path: path, reason: String(cString: strerror(errno)))
    }
}
