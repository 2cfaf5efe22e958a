import Foundation

/// Whether the memory a run needs at a scale is there, known before anything is generated. What
/// grows with the payload is what the ceiling keeps: every batch's record buffers until its one
/// transaction commits (the strategies let each batch go). Their size per payload byte comes from a
/// `ScenarioSample`.
package enum MemoryNeed {
    /// Refuses a run whose ceiling would keep more record buffers than the memory available now;
    /// `scalable` is false for a recorded payload, which no `--scale` makes smaller.
    package static func check(
        _ scenario: any Scenario, payloadBytes: Double, recordBytesPerPayloadByte: Double, describing what: String, scalable: Bool = true
    ) throws(RunError) {
        guard let available = availableBytes() else { return }
        let need = payloadBytes * recordBytesPerPayloadByte
        guard need > available else { return }
        throw .refused(.notEnoughMemory(what: what, needBytes: need, availableBytes: available, scalable: scalable))
    }

    /// The kernel's estimate of memory available to a new process without swapping (MemAvailable).
    static func availableBytes() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("MemAvailable:") {
            let fields = line.split(separator: " ")
            guard fields.count >= 2, let kilobytes = Double(fields[1]) else { return nil }
            return kilobytes * 1024
        }
        return nil
    }
}
