@testable import ImportBenchCore
import Testing

@Suite("Meters")
struct MetersTests {
    @Test("jemalloc is the process allocator: Swift allocations show in its thread counters")
    func jemallocSeesSwiftAllocations() {
        #expect(AllocatorStatistics.isAvailable)
        let before = AllocatorStatistics.now()
        AllocatorStatistics.resetPeak()
        var buffers: [[UInt8]] = []
        for index in 0..<64 { buffers.append([UInt8](repeating: UInt8(index), count: 64 * 1024)) }
        let after = AllocatorStatistics.now()
        let peak = AllocatorStatistics.peak()
        #expect(buffers.count == 64)
        #expect(after.allocatedBytes - before.allocatedBytes >= 64 * 64 * 1024)
        #expect(after.mallocCount - before.mallocCount >= 64)
        #expect(peak >= 64 * 64 * 1024)
    }

    @Test("the peak resident set resets between runs")
    func peakResidentMemoryResets() {
        #expect(PeakResidentMemory.reset())
        let baseline = PeakResidentMemory.read()
        let size = 256 * 1024 * 1024
        var block = [UInt8](repeating: 1, count: size)
        block[size - 1] = 2
        let grown = PeakResidentMemory.read()
        #expect(grown >= baseline + Int64(size) / 2)
        block = []
        #expect(block.isEmpty)
        PeakResidentMemory.reset()
        #expect(PeakResidentMemory.read() < grown - Int64(size) / 2)
    }
}
