import Foundation
import Testing

@testable import ImportBenchCore

@Suite("What a scale needs")
struct ResourceNeedTests {
    @Test("record buffers per payload byte are measured on a sample; a run past the memory available is refused, naming both")
    func memory() throws {
        let ratio = try ScenarioSample(of: ChatScenario()).recordBytesPerPayloadByte
        #expect(ratio > 0.5 && ratio < 20, "\(ratio)")
        let available = try #require(MemoryNeed.availableBytes())
        let error = expectRefusal {
            try MemoryNeed.check(ChatScenario(), payloadBytes: available / ratio * 2, recordBytesPerPayloadByte: ratio, describing: "chat at 9000x")
        }
        #expect(error.map { "\($0)" }?.hasPrefix("chat at 9000x needs about ") == true)
        let recorded = expectRefusal {
            try MemoryNeed.check(
                ChatScenario(), payloadBytes: available / ratio * 2, recordBytesPerPayloadByte: ratio, describing: "the payload big.json",
                scalable: false)
        }
        #expect(recorded.map { "\($0)" }?.contains("--scale") == false)
        try MemoryNeed.check(ChatScenario(), payloadBytes: 1_000_000, recordBytesPerPayloadByte: ratio, describing: "chat at 0.1x")
    }

    @Test("a scale past the free disk is refused before anything is generated, naming need and free space")
    func disk() throws {
        let error = expectRefusal {
            try DiskNeed.check(ChatScenario(), scale: try #require(Scale(factor: 1e12)), payloadBytesAtBaseScale: 1e7)
        }
        #expect(error.map { "\($0)" }?.contains("needs about") == true)
        #expect(error.map { "\($0)" }?.contains("--scale") == true)
        // A recorded payload has no --scale to lower: the refusal names what can be changed.
        let recorded = expectRefusal {
            try DiskNeed.check(ChatScenario(), scale: .base, payloadBytesAtBaseScale: 1e19, describing: "the payload big.json", scalable: false)
        }
        #expect(recorded.map { "\($0)" }?.hasPrefix("the payload big.json needs about") == true)
        #expect(recorded.map { "\($0)" }?.contains("--scale") == false)
        #expect(recorded.map { "\($0)" }?.contains("TMPDIR") == true)
        #expect(DiskNeed.describe(1.1e16) == "11 PB")
        #expect(DiskNeed.describe(8.2e10) == "82 GB")
        #expect(DiskNeed.describe(512) == "512 bytes")
    }
}
