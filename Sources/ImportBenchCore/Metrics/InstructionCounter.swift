import CCounters
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// User-space instructions the calling thread retires, from the kernel's performance counters:
/// a cost that repeats where times scatter (CodSpeed and iai-callgrind gate on it for that reason).
/// Many virtual machines offer no such counter; then `init` says why, and the run records the
/// reason instead of a number: a note, not an error.
struct InstructionCounter: ~Copyable {
    private let descriptor: Int32
    private let startValue: Int64

    /// Why no count could be had, as the CSV's `instructions_note` records it.
    struct Unavailable: Equatable, CustomStringConvertible {
        let errorNumber: Int32
        let kernelParanoia: String?

        var description: String {
            let call = "perf_event_open: \(String(cString: strerror(errorNumber)))"
            switch errorNumber {
            case ENOENT, EOPNOTSUPP, ENODEV:
                return "no instruction counter on this machine (a virtual machine may hide it); \(call)"
            case EACCES, EPERM:
                return "counters not permitted here (kernel.perf_event_paranoid=\(kernelParanoia ?? "?")); \(call)"
            case ENOSYS:
                return "the kernel offers no performance counters (Linux only); \(call)"
            default:
                return call
            }
        }
    }

    /// Starts counting on the calling thread, which must be the one that does the work; nil where
    /// the machine offers no counter, with why in `unavailable`.
    init?(unavailable: inout Unavailable?) {
        let opened = importbench_instructions_open()
        guard opened >= 0 else {
            let paranoia = try? String(contentsOfFile: "/proc/sys/kernel/perf_event_paranoid", encoding: .utf8)
            unavailable = Unavailable(errorNumber: -opened, kernelParanoia: paranoia?.trimmingCharacters(in: .whitespacesAndNewlines))
            return nil
        }
        let value = importbench_instructions_read(opened)
        guard value >= 0 else {
            close(opened)
            unavailable = Unavailable(errorNumber: EIO, kernelParanoia: nil)
            return nil
        }
        descriptor = opened
        startValue = value
    }

    /// The instructions retired since `init`; nil if the counter could not be read.
    consuming func stop() -> UInt64? {
        let value = importbench_instructions_read(descriptor)
        let counted = value >= startValue ? UInt64(value - startValue) : nil
        close(descriptor)
        discard self
        return counted
    }

    deinit { close(descriptor) }
}
