import CJemalloc

/// jemalloc's counters, read through mallctl. jemalloc is linked as the process allocator, so every
/// Swift and SQLite allocation passes through it. Byte counts are per thread: a run imports on one.
struct AllocatorStatistics: Sendable {
    /// Bytes allocated by this thread since it started (monotonic).
    var allocatedBytes: UInt64
    /// Allocation requests served, all threads (monotonic).
    var mallocCount: UInt64

    static func now() -> AllocatorStatistics {
        // Thread caches hold requests back from the arena statistics until flushed.
        _ = mallctl("thread.tcache.flush", nil, nil, nil, 0)
        var epoch: UInt64 = 1
        _ = mallctl("epoch", nil, nil, &epoch, MemoryLayout<UInt64>.size)
        let small = readUInt64("stats.arenas.4096.small.nrequests") ?? 0
        let large = readUInt64("stats.arenas.4096.large.nrequests") ?? 0
        return AllocatorStatistics(allocatedBytes: readUInt64("thread.allocated") ?? 0, mallocCount: small + large)
    }

    /// Starts a new peak window for this thread's live allocated bytes.
    static func resetPeak() {
        _ = mallctl("thread.peak.reset", nil, nil, nil, 0)
    }

    /// Highest (allocated - deallocated) on this thread since `resetPeak`.
    static func peak() -> UInt64 {
        readUInt64("thread.peak.read") ?? 0
    }

    /// An arena of its own for a helper thread (the reader probe), created once, so that the requests
    /// it serves can be taken out of the run's process-wide `mallocCount`.
    private static let helperArena: UInt32? = {
        var arena: UInt32 = 0
        var size = MemoryLayout<UInt32>.size
        return mallctl("arenas.create", &arena, &size, nil, 0) == 0 ? arena : nil
    }()

    /// Moves this thread's allocations to the helper arena, with no thread cache, so each request is
    /// counted there at once; returns the arena's requests so far.
    static func isolateCurrentThread() -> UInt64 {
        guard var arena = helperArena else { return 0 }
        var disabled = false
        _ = mallctl("thread.tcache.enabled", nil, nil, &disabled, MemoryLayout<Bool>.size)
        _ = mallctl("thread.arena", nil, nil, &arena, MemoryLayout<UInt32>.size)
        return isolatedThreadRequests()
    }

    /// Requests the helper arena has served.
    static func isolatedThreadRequests() -> UInt64 {
        guard let arena = helperArena else { return 0 }
        var epoch: UInt64 = 1
        _ = mallctl("epoch", nil, nil, &epoch, MemoryLayout<UInt64>.size)
        return (readUInt64("stats.arenas.\(arena).small.nrequests") ?? 0) + (readUInt64("stats.arenas.\(arena).large.nrequests") ?? 0)
    }

    /// True when jemalloc answers: its statistics are meaningful only then.
    static var isAvailable: Bool { readUInt64("thread.allocated") != nil }

    private static func readUInt64(_ name: String) -> UInt64? {
        var value: UInt64 = 0
        var size = MemoryLayout<UInt64>.size
        return mallctl(name, &value, &size, nil, 0) == 0 ? value : nil
    }
}
