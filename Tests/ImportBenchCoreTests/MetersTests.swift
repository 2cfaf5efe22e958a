import Testing

@testable import ImportBenchCore

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

@Suite("What made a result: instructions, build, machine")
struct ProvenanceMeterTests {
    @Test("the instruction counter counts a loop's instructions where the machine has one, else says why, naming perf_event_open")
    func instructionsOrReason() throws {
        var unavailable: InstructionCounter.Unavailable?
        guard let counter = InstructionCounter(unavailable: &unavailable) else {
            let reason = try #require(unavailable, "no counter, and no reason given")
            #expect(reason.description.contains("perf_event_open"))
            return
        }
        var sum: UInt64 = 0
        for index in 0..<10_000_000 { sum = sum &+ UInt64(truncatingIfNeeded: index) &* 3 }
        let counted = counter.stop()
        #expect(sum > 0)
        // Each iteration takes at least one instruction, whatever the optimiser made of it.
        #expect((counted ?? 0) >= 10_000_000)
    }

    @Test("the build is named: the configuration these tests were built with, the revision git has checked out")
    func buildIdentity() throws {
        #if DEBUG
            #expect(BuildIdentity.current.configuration == "debug")
        #else
            #expect(BuildIdentity.current.configuration == "release")
        #endif
        let revision = BuildIdentity.current.revision
        guard !revision.isEmpty else { return }  // not a git checkout (a source archive)
        let commit = revision.hasSuffix(BuildIdentity.dirtySuffix) ? String(revision.dropLast(BuildIdentity.dirtySuffix.count)) : revision
        #expect(commit.count == 40 && commit.allSatisfy(\.isHexDigit))
        #expect(BuildIdentity.short(revision).hasPrefix(String(commit.prefix(12))))
    }

    @Test("the machine is told apart beyond its model name: kernel and CPU signature")
    func machineFingerprint() {
        #expect(!MachineEnvironment.current.kernel.isEmpty)
        #if os(Linux) && arch(x86_64)
            #expect(MachineEnvironment.current.cpuSignature.hasPrefix("family "))
        #endif
    }
}
