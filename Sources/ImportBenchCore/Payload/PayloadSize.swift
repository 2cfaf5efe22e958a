import Foundation

/// How big a payload is on disk: a file's size, or the sum of a directory's files (a GTFS feed).
package enum PayloadSize {
    package static func bytes(at path: String) -> Int64 {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { return 0 }
        let files = isDirectory.boolValue
            ? ((try? manager.contentsOfDirectory(atPath: path)) ?? []).map { (path as NSString).appendingPathComponent($0) }
            : [path]
        return files.reduce(0) { total, file in
            total + (((try? manager.attributesOfItem(atPath: file))?[.size] as? NSNumber)?.int64Value ?? 0)
        }
    }
}
