import Foundation

/// Output paths checked before any work, so a run does not import for minutes and then find it
/// cannot write its results: the path must not be a directory, and its directory (or the nearest
/// one that exists, which the write will create below) must be writable.
enum OutputPath {
    static func check(_ path: String, for option: String) throws {
        guard !path.isEmpty else { throw CommandFailure.failed("\(option): an empty path; give a file path") }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue {
                throw CommandFailure.failed("\(option) \(path): a directory; give a file path inside it")
            }
            guard access(path, W_OK) == 0 else {
                throw CommandFailure.failed("\(option) \(path): cannot be written (\(String(cString: strerror(errno))))")
            }
            return
        }
        var directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { break }
            directory = parent
        }
        guard isDirectory.boolValue else {
            throw CommandFailure.failed("\(option) \(path): \(directory.path) is a file, not a directory")
        }
        guard access(directory.path, W_OK | X_OK) == 0 else {
            throw CommandFailure.failed("\(option) \(path): cannot write in \(directory.path) (\(String(cString: strerror(errno))))")
        }
    }
}
