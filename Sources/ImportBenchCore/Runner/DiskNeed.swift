import Foundation

/// Whether a generated payload, and the stores a run writes from it, fit on the disk, known before
/// anything is generated: `--scale 1e9x` then ends with a sentence saying how much it needs and
/// how much there is, instead of filling the disk or the memory first.
package enum DiskNeed {
    /// A store's size as a multiple of its payload's: at most 2.2 in the ci preset (transit's
    /// compact CSV), about 0.7 for the JSON scenarios.
    static let storeToPayload = 2.5

    /// Refuses a run whose payload at `scale` would not fit: in the temporary directory the payload,
    /// the expected content's scratch store, the ceiling's store and the C reference's copy live at
    /// once; kept stores (one per strategy) live beside `keptPath`. `scalable` is false for a
    /// recorded payload, which no `--scale` makes smaller.
    package static func check(
        _ scenario: any Scenario, scale: Scale, payloadBytesAtBaseScale: Double, keptStores: Int = 0, keptPath: String? = nil,
        describing what: String? = nil, scalable: Bool = true
    ) throws(RunError) {
        let payload = payloadBytesAtBaseScale * scale.factor
        // What must fit on each filesystem: the temporary directory's, and the kept stores' when apart.
        var needs: [(filesystem: UInt64?, directory: String, bytes: Double, purposes: [String])] = []
        func add(_ bytes: Double, in directory: String, _ purpose: String) {
            let device = filesystem(of: directory)
            if let index = needs.firstIndex(where: { $0.filesystem != nil && $0.filesystem == device }) {
                needs[index].bytes += bytes
                needs[index].purposes.append(purpose + " in " + directory)
            } else {
                needs.append((device, directory, bytes, [purpose + " in " + directory]))
            }
        }
        add(payload * (1 + 3 * storeToPayload), in: FileManager.default.temporaryDirectory.path, "the payload and its scratch stores")
        if keptStores > 0, let keptPath {
            let directory = URL(fileURLWithPath: keptPath).deletingLastPathComponent().path
            add(payload * storeToPayload * Double(keptStores), in: directory, "\(keptStores) kept store\(keptStores == 1 ? "" : "s")")
        }
        for need in needs {
            guard let free = freeBytes(in: need.directory), need.bytes > free else { continue }
            throw .refused(
                .notEnoughDisk(
                    what: what ?? "\(scenario.name) at \(scale)", needBytes: need.bytes, purpose: need.purposes.joined(separator: " and "),
                    freeBytes: free, scalable: scalable))
        }
    }

    /// Writing `bytes` of payload to `path` (`bench generate`).
    package static func checkOutput(_ scenario: any Scenario, scale: Scale, payloadBytesAtBaseScale: Double, path: String) throws(RunError) {
        let bytes = payloadBytesAtBaseScale * scale.factor
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if let free = freeBytes(in: directory), bytes > free {
            throw .refused(
                .notEnoughDisk(
                    what: "\(scenario.name) at \(scale)", needBytes: bytes, purpose: "the payload in \(directory)", freeBytes: free, scalable: true))
        }
    }

    static func freeBytes(in directory: String) -> Double? {
        var info = statvfs()
        guard statvfs(existingAncestor(of: directory), &info) == 0 else { return nil }
        return Double(info.f_bavail) * Double(info.f_frsize)
    }

    private static func filesystem(of directory: String) -> UInt64? {
        var status = stat()
        guard stat(existingAncestor(of: directory), &status) == 0 else { return nil }
        return UInt64(status.st_dev)
    }

    /// The directory itself, or its nearest parent that exists (a kept store's directory is created by the run).
    private static func existingAncestor(of directory: String) -> String {
        var url = URL(fileURLWithPath: directory)
        while !FileManager.default.fileExists(atPath: url.path), url.path != "/" { url.deleteLastPathComponent() }
        return url.path
    }

    /// "11 PB", "80 GB", "512 MB": decimal units, as disks are sold and `df -H` prints.
    static func describe(_ bytes: Double) -> String {
        let units = ["bytes", "kB", "MB", "GB", "TB", "PB", "EB", "ZB"]
        var value = bytes
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return value >= 10 || unit == 0 ? "\(Int(value.rounded())) \(units[unit])" : String(format: "%.1f %@", value, units[unit])
    }
}
