import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if os(Linux)
    private let rusageSelf = RUSAGE_SELF.rawValue
    /// RUSAGE_THREAD, which Glibc's module leaves out (it is behind _GNU_SOURCE).
    private let rusageThread: Int32 = 1
#else
    private let rusageSelf = RUSAGE_SELF
#endif

/// CPU time of this process, from getrusage.
struct CPUTime: Sendable {
    var user: Double
    var system: Double

    static func now() -> CPUTime {
        var usage = rusage()
        getrusage(rusageSelf, &usage)
        return CPUTime(user: seconds(usage.ru_utime), system: seconds(usage.ru_stime))
    }

    /// CPU time of the calling thread alone, where the platform tells it (Linux); zero elsewhere.
    static func currentThread() -> CPUTime {
        #if os(Linux)
            var usage = rusage()
            getrusage(rusageThread, &usage)
            return CPUTime(user: seconds(usage.ru_utime), system: seconds(usage.ru_stime))
        #else
            return CPUTime(user: 0, system: 0)
        #endif
    }

    private static func seconds(_ time: timeval) -> Double {
        Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000
    }

    static func - (lhs: CPUTime, rhs: CPUTime) -> CPUTime {
        CPUTime(user: lhs.user - rhs.user, system: lhs.system - rhs.system)
    }
}

/// Peak resident set size of one run inside a longer-lived process. On Linux the kernel's
/// high-water mark (VmHWM) is reset through /proc/self/clear_refs, so the peak belongs to the run;
/// elsewhere it falls back to the process-lifetime maximum.
enum PeakResidentMemory {
    /// Resets the high-water mark; false where the platform cannot.
    @discardableResult
    static func reset() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do {
            try handle.write(contentsOf: Data("5".utf8))
            return true
        } catch {
            return false
        }
    }

    /// Bytes: VmHWM when readable, otherwise ru_maxrss.
    static func read() -> Int64 {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        {
            let digits = line.filter(\.isNumber)
            if let kilobytes = Int64(digits) { return kilobytes * 1024 }
        }
        var usage = rusage()
        getrusage(rusageSelf, &usage)
        #if os(Linux)
            return Int64(usage.ru_maxrss) * 1024
        #else
            return Int64(usage.ru_maxrss)
        #endif
    }
}
