import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps a second bench from importing into the same kept store at the same time: an exclusive
/// `flock` on `STORE.bench-lock`, which holds the owner's PID so the refusal can name it. The lock
/// dies with its process, however it ends; the file is removed when the run lets go of it.
package final class StoreLock {
    package let path: String
    private let descriptor: Int32

    /// Takes the lock of the store at `storePath`, or throws `RunRefusal.storeInUse` naming the
    /// process that holds it.
    package init(storePath: String) throws {
        path = storePath + ".bench-lock"
        let directory = URL(fileURLWithPath: storePath).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw RunError.refused(.unwritableStorePath(path: storePath, reason: "its directory cannot be created (\(error.localizedDescription))"))
        }
        while true {
            // Never through a link, and only into a regular file: the lock file is written to.
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
            guard descriptor >= 0 else {
                throw RunError.refused(
                    .unwritableStorePath(path: storePath, reason: "\(path) cannot be created (\(String(cString: strerror(errno))))"))
            }
            var kind = stat()
            guard fstat(descriptor, &kind) == 0, kind.st_mode & S_IFMT == S_IFREG else {
                close(descriptor)
                throw RunError.refused(.notOurStore(path: path, found: "something other than a regular file"))
            }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                let holder = Self.holder(descriptor)
                close(descriptor)
                throw RunError.refused(.storeInUse(path: storePath, holder: holder))
            }
            // The holder before us may have removed the file between our open and our lock: then
            // our lock is on a file no one else will find, and we start again.
            var opened = stat()
            var named = stat()
            if fstat(descriptor, &opened) == 0, stat(path, &named) == 0, opened.st_ino == named.st_ino, opened.st_dev == named.st_dev {
                let text = "bench process \(getpid())\n"
                _ = ftruncate(descriptor, 0)
                _ = text.withCString { pwrite(descriptor, $0, strlen($0), 0) }
                self.descriptor = descriptor
                return
            }
            close(descriptor)
        }
    }

    deinit {
        unlink(path)
        close(descriptor)
    }

    /// What the lock file says of its holder.
    private static func holder(_ descriptor: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 64, 0) }
        let text = count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : ""
        return text.isEmpty ? "another bench process" : text
    }
}
