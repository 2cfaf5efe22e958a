import Foundation

/// How big a payload is: the bytes its readers read (a gzip file's inflated ones, counted by
/// inflating it once, untimed), or the sum of a directory's files (a GTFS feed); and what it takes on disk.
package enum PayloadSize {
    package static func bytes(at path: String) -> Int64 {
        files(at: path).reduce(0) { total, file in total + (inflatedBytes(file) ?? onDisk(file)) }
    }

    /// The files' size on disk: less than `bytes` where some are compressed.
    package static func bytesOnDisk(at path: String) -> Int64 {
        files(at: path).reduce(0) { total, file in total + onDisk(file) }
    }

    private static func files(at path: String) -> [String] {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { return [] }
        return isDirectory.boolValue
            ? ((try? manager.contentsOfDirectory(atPath: path)) ?? []).map { (path as NSString).appendingPathComponent($0) }
            : [path]
    }

    private static func onDisk(_ file: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// A gzip file's inflated size, streamed through in chunks; nil for a file that is not one
    /// (or cannot be read whole: its readers will say where).
    private static func inflatedBytes(_ file: String) -> Int64? {
        guard let input = try? PayloadInput(path: file, expected: .readable(.file)), input.isCompressed else { return nil }
        let chunkSize = 1 << 20
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
        defer { buffer.deallocate() }
        var total = 0
        while let received = try? input.read(into: buffer, count: chunkSize, offset: total), received > 0 { total += received }
        return Int64(total)
    }
}
