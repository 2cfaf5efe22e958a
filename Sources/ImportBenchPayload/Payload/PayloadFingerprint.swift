import Foundation

/// A cheap identity for a payload file or feed directory: each file's name, size and a hash of its
/// first and last 64 KiB. Enough to refuse resuming a checkpoint against a different payload without
/// reading gigabytes; a regenerated payload (same scenario, scale and seed) matches.
package enum PayloadFingerprint {
    package static func of(_ path: String) -> String {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { return "missing" }
        let files =
            isDirectory.boolValue
            ? ((try? manager.contentsOfDirectory(atPath: path)) ?? []).sorted().map { (path as NSString).appendingPathComponent($0) }
            : [path]
        return files.map { file in
            let name = isDirectory.boolValue ? (file as NSString).lastPathComponent + ":" : ""
            return name + fingerprint(ofFile: file)
        }.joined(separator: ",")
    }

    private static func fingerprint(ofFile path: String) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "unreadable" }
        defer { try? handle.close() }
        let window = 65_536
        let size = (try? handle.seekToEnd()) ?? 0
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ data: Data) {
            for byte in data {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
        }
        try? handle.seek(toOffset: 0)
        mix((try? handle.read(upToCount: window)) ?? Data())
        if size > UInt64(window) {
            try? handle.seek(toOffset: size - UInt64(min(UInt64(window), size - UInt64(window))))
            mix((try? handle.read(upToCount: window)) ?? Data())
        }
        return "\(size)/\(String(hash, radix: 16))"
    }
}
