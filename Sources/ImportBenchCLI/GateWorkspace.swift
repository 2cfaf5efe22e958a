import Foundation

/// The gate's folder under TMPDIR (or the one given to keep the base in), removed at the end.
struct GateWorkspace {
    let root: URL
    /// Where the base is exported and built.
    let base: URL
    /// Where each repetition's CSV goes.
    let runs: URL

    init(keeping baseFolder: String?) throws {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("importbench-gate-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: false)
        root = temporary
        runs = temporary.appendingPathComponent("runs")
        try FileManager.default.createDirectory(at: runs, withIntermediateDirectories: false)
        guard let baseFolder else {
            base = temporary.appendingPathComponent("base")
            return
        }
        base = URL(fileURLWithPath: baseFolder)
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: baseFolder)) ?? []
        guard entries.isEmpty || entries.contains(GateBase.marker) else {
            try? FileManager.default.removeItem(at: temporary)
            throw CommandFailure.gate(.foreignFolder(baseFolder))
        }
    }

    /// Removes the gate's folder; a kept base lies outside it and stays.
    func remove() {
        try? FileManager.default.removeItem(at: root)
    }
}
